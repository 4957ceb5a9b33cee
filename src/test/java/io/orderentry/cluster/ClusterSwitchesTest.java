package io.orderentry.cluster;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** The cluster's dead man's switches as the log changes them, and as a snapshot carries them. */
class ClusterSwitchesTest {

    /** The consensus module's timers as the switches asked for them. */
    private static final class Timers implements ClusterSwitches.Timers {
        final List<String> calls = new ArrayList<>();

        @Override
        public void schedule(final long correlationId, final long deadlineMicros) {
            calls.add("schedule " + correlationId + " at " + deadlineMicros);
        }

        @Override
        public void cancel(final long correlationId) {
            calls.add("cancel " + correlationId);
        }
    }

    private final ClusterSwitches switches = new ClusterSwitches();
    private final Timers timers = new Timers();

    @Test
    void anArmingSchedulesATimerAtTheLogsTimePlusTheTimeoutAndAnswersThatDeadline() {
        assertEquals(61_000_000L, switches.arm("acct-1", 60, "k1", 1_000_000L, timers));
        assertEquals(List.of("schedule 1 at 61000000"), timers.calls);
        assertEquals(1, switches.armedCount());
    }

    @Test
    void aRefreshCancelsTheFormerTimerAndTheFormerTimersEventThenFiresNothing() {
        switches.arm("acct-1", 5, "k1", 0, timers);
        switches.arm("acct-1", 5, "k2", 4_000_000L, timers);
        assertEquals(List.of("schedule 1 at 5000000", "cancel 1", "schedule 2 at 9000000"), timers.calls);
        assertNull(switches.fire(1), "the leader fired the former timer before the refresh reached the log");
        assertEquals(1, switches.armedCount());
        assertEquals(new ClusterSwitches.Fired("acct-1", "k2"), switches.fire(2));
        assertEquals(0, switches.armedCount());
        assertEquals(1, switches.firedCount());
    }

    @Test
    void aSwitchFiresOnceAndIsGone() {
        switches.arm("acct-1", 1, null, 0, timers);
        assertEquals(new ClusterSwitches.Fired("acct-1", null), switches.fire(1));
        assertNull(switches.fire(1));
        assertEquals(1, switches.firedCount());
    }

    @Test
    void aDisarmCancelsTheTimerAndTheSwitchNeverFires() {
        switches.arm("acct-1", 10, "k1", 0, timers);
        assertEquals(0, switches.arm("acct-1", 0, "k1", 1, timers));
        assertEquals(List.of("schedule 1 at 10000000", "cancel 1"), timers.calls);
        assertNull(switches.fire(1));
        assertEquals(0, switches.armedCount());
        assertEquals(0, switches.arm("acct-2", 0, null, 1, timers), "disarming an unarmed switch changes nothing");
        assertEquals(2, timers.calls.size());
    }

    @Test
    void aTimeoutOutsideTheRangeIsRefusedAndChangesNothing() {
        switches.arm("acct-1", 10, "k1", 0, timers);
        assertThrows(IllegalArgumentException.class, () -> switches.arm("acct-1", 3601, "k1", 0, timers));
        assertThrows(IllegalArgumentException.class, () -> switches.arm("acct-1", -1, "k1", 0, timers));
        assertEquals(1, timers.calls.size());
        assertEquals(new ClusterSwitches.Fired("acct-1", "k1"), switches.fire(1));
    }

    @Test
    void theSnapshotsSectionRestoresTheSameSwitchesAndTheTimerIdsGoOnFromWhereTheyWere() throws IOException {
        switches.arm("acct-1", 10, "k1", 0, timers);
        switches.arm("acct-2", 20, null, 0, timers);
        switches.arm("acct-3", 30, "k3", 0, timers);
        switches.arm("acct-3", 0, "k3", 0, timers);
        final byte[] section = switches.section();
        final ClusterSwitches restored = new ClusterSwitches();
        restored.restore(Arrays.copyOfRange(section, 12, section.length));
        assertEquals(2, restored.armedCount());
        assertArrayEquals(section, restored.section(), "the same state writes the same bytes");
        assertEquals(new ClusterSwitches.Fired("acct-2", null), restored.fire(2));
        assertNull(restored.fire(3), "acct-3 was disarmed");
        final Timers later = new Timers();
        restored.arm("acct-4", 1, null, 0, later);
        assertEquals(List.of("schedule 4 at 1000000"), later.calls, "a timer id is never taken twice");
    }

    @Test
    void aSectionThisBuildDidNotWriteIsRefused() {
        final byte[] section = switches.section();
        final byte[] body = Arrays.copyOfRange(section, 12, section.length);
        body[3] = 9;   // the version
        assertThrows(IOException.class, () -> new ClusterSwitches().restore(body));
        switches.arm("acct-1", 10, "k1", 0, timers);
        final byte[] armed = switches.section();
        final byte[] cut = Arrays.copyOfRange(armed, 12, armed.length - 3);
        assertThrows(IOException.class, () -> new ClusterSwitches().restore(cut));
    }
}
