package io.orderentry.cluster;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

class LogRetentionTest {

    private final LogRetention retention = new LogRetention(new int[] {0, 1, 2}, 1);

    @Test
    void theFloorIsUnknownUntilEveryMemberHasSaidWhereItKeepsItsLogFrom() {
        retention.onKeepFrom(0, 5_000);
        retention.onKeepFrom(1, 7_000);
        assertEquals(LogRetention.UNKNOWN, retention.floor(), "member 2 may be down, needing the log from anywhere");
        assertEquals(7_000, retention.ownKeepFrom());
        retention.onKeepFrom(2, 6_000);
        assertEquals(5_000, retention.floor());
    }

    @Test
    void theFloorIsTheLowestPositionAndNeverMovesBack() {
        retention.onKeepFrom(0, 5_000);
        retention.onKeepFrom(1, 7_000);
        retention.onKeepFrom(2, 6_000);
        retention.onKeepFrom(0, 9_000);
        assertEquals(6_000, retention.floor(), "member 2 now holds it");
        retention.onKeepFrom(2, 4_000);   // stale: sent before a later one that reached the log first
        assertEquals(6_000, retention.floor());
    }

    @Test
    void aMemberThatIsNotInTheListIsIgnored() {
        retention.onKeepFrom(0, 5_000);
        retention.onKeepFrom(1, 5_000);
        retention.onKeepFrom(7, 1_000);
        assertEquals(LogRetention.UNKNOWN, retention.floor());
        retention.onKeepFrom(2, 5_000);
        assertEquals(5_000, retention.floor());
    }
}
