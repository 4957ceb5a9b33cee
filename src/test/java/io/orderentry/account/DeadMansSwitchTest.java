package io.orderentry.account;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class DeadMansSwitchTest {

    private long now = 1_000_000_000L;
    private boolean ringFull;
    private final List<String> published = new ArrayList<>();
    private final DeadMansSwitch deadMansSwitch = new DeadMansSwitch((account, keyId) -> {
        if (ringFull) {
            return false;
        }
        published.add(account + "/" + keyId);
        return true;
    }, () -> now, false);

    private void advanceSeconds(final double seconds) {
        now += (long) (seconds * TimeUnit.SECONDS.toNanos(1));
        deadMansSwitch.check();
    }

    @Test
    void anArmedSwitchFiresOneCancelAllOnceItsTimeoutPassesWithTheKeyThatArmedIt() {
        final Instant before = Instant.now();
        final Instant triggerAt = deadMansSwitch.arm("alice", 5, "k1");
        assertTrue(!triggerAt.isBefore(before.plusSeconds(5)), triggerAt.toString());
        advanceSeconds(4.9);
        assertEquals(List.of(), published);
        advanceSeconds(0.1);
        assertEquals(List.of("alice/k1"), published);
        advanceSeconds(60);
        assertEquals(List.of("alice/k1"), published, "it fires once, then it is disarmed");
        assertEquals(0, deadMansSwitch.armedCount());
        assertEquals(1, deadMansSwitch.firedCount());
    }

    @Test
    void aRefreshMovesTheDeadlineFromNowAndTheLastRefreshWins() {
        deadMansSwitch.arm("alice", 5, "k1");
        advanceSeconds(4);
        deadMansSwitch.arm("alice", 5, "k2");
        advanceSeconds(4);
        assertEquals(List.of(), published);
        deadMansSwitch.arm("alice", 1, "k3");
        advanceSeconds(1);
        assertEquals(List.of("alice/k3"), published);
    }

    @Test
    void zeroDisarmsAndEachAccountHasItsOwnSwitch() {
        deadMansSwitch.arm("alice", 2, "ka");
        deadMansSwitch.arm("bob", 3, "kb");
        assertNull(deadMansSwitch.arm("alice", 0, "ka"));
        advanceSeconds(10);
        assertEquals(List.of("bob/kb"), published);
    }

    @Test
    void aFullInputRingIsRetriedAtTheNextCheckRatherThanDropped() {
        deadMansSwitch.arm("alice", 1, "k1");
        ringFull = true;
        advanceSeconds(2);
        assertEquals(List.of(), published);
        assertEquals(1, deadMansSwitch.armedCount(), "still armed");
        ringFull = false;
        advanceSeconds(0.1);
        assertEquals(List.of("alice/k1"), published);
    }

    @Test
    void aTimeoutOutsideZeroTo3600IsABugOfTheCaller() {
        assertThrows(IllegalArgumentException.class, () -> deadMansSwitch.arm("alice", 3601, null));
        assertThrows(IllegalArgumentException.class, () -> deadMansSwitch.arm("alice", -1, null));
    }
}
