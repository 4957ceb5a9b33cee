package io.orderentry.app;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.Test;

class HeapSizingTest {

    @Test
    void theDefaultLimitsNeedAbout3Point7GibWithTheSnapshotWriterAndFitTheImagesHeap() {
        final Config defaults = ConfigLoader.load(Map.of());
        final long needed = HeapSizing.neededBytes(defaults);
        assertTrue(needed > (3L << 30) && needed < (4L << 30), "needed " + needed);
        assertNull(HeapSizing.warning(defaults, 4L << 30), "the Dockerfile's -Xmx4g fits the defaults");
        final long live = HeapSizing.neededBytes(ConfigLoader.load(Map.of("ORDERS_SNAPSHOT_ENABLED", "false")));
        assertTrue(live < needed / 2 + (HeapSizing.BASE_BYTES), "the snapshot writer's copy doubles the state");
    }

    @Test
    void aHeapBelowWhatTheLimitsNeedIsNamedWithTheRuleAndTheSettings() {
        final String warning = HeapSizing.warning(ConfigLoader.load(Map.of()), 1L << 30);
        assertTrue(warning.contains("needs about 3."), warning);
        assertTrue(warning.contains("2,000,000 resting orders x 560 B"), warning);
        assertTrue(warning.contains("set -Xmx"), warning);
        assertTrue(warning.contains("ORDERS_ENGINE_MAX_RESTING_ORDERS"), warning);
        assertNull(HeapSizing.warning(ConfigLoader.load(Map.of("ORDERS_ENGINE_MAX_RESTING_ORDERS", "100000",
                "ORDERS_QUERY_RETAINED_FINAL_ORDERS", "100000", "ORDERS_ENGINE_DEDUP_WINDOW", "100000")), 1L << 30),
                "small limits fit a small heap");
    }

    @Test
    void theEngineReservesItsOrderStorageAtStartOnlyWhenTheHeapFitsTheLimits() {
        final Config defaults = ConfigLoader.load(Map.of());
        assertTrue(HeapSizing.fits(defaults, 4L << 30), "the start script's and the image's -Xmx4g");
        assertFalse(HeapSizing.fits(defaults, 512L << 20), "a heap below the rule grows the storage with the books");
        assertTrue(HeapSizing.warning(defaults, 512L << 20).contains("does not reserve its order storage"));
    }
}
