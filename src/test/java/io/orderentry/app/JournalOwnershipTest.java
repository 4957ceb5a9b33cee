package io.orderentry.app;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.orderentry.testing.RunningService;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class JournalOwnershipTest {

    @TempDir
    Path dir;

    @Test
    void secondServiceOnTheSameJournalRefusesToStart() {
        try (RunningService first = RunningService.start(dir, Map.of())) {
            final IllegalStateException refused = assertThrows(IllegalStateException.class,
                    () -> RunningService.start(dir, Map.of()).close());
            assertTrue(refused.getMessage().contains("in use"), refused.getMessage());
            first.client().get("/health");
        }
        RunningService.start(dir, Map.of()).close();
    }
}
