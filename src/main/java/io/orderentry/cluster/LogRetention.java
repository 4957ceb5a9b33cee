package io.orderentry.cluster;

import java.util.Arrays;

/**
 * What part of the cluster's log each member still needs, as the members said it in the log itself
 * ({@link ClusterCommands#encodeKeepFrom}): every member applies the same messages in the same order, so every member
 * computes the same {@link #floor}, the position before which no member needs the log any more.
 *
 * <p>A member needs its log from its second newest snapshot on: it recovers from its newest (or, if that one were lost,
 * the one before) and replays the log after it; and while it is behind, the leader sends it the log from its own end,
 * which is past its snapshots. So once every member has said "from P on", no member will ask any member for the log
 * before P, and each may delete it. A member that has said nothing since this one started, or a member that is down,
 * holds the floor where it is: the log is kept until it is back and has said where it is.
 *
 * <p>Not part of the engine's state and not in the snapshots: after a restart the floor is unknown (no purge) until
 * every member has spoken again, which each does within seconds of its next snapshot.
 *
 * <p>Threads: {@link #onKeepFrom} on the service's thread; the rest on any.
 */
public final class LogRetention {

    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(LogRetention.class);
    /** Not heard from since this member started. */
    public static final long UNKNOWN = -1;

    private final int[] members;
    private final long[] keepFrom;
    private final int self;
    private volatile long floor = UNKNOWN;
    private volatile long ownKeepFrom = UNKNOWN;

    /**
     * @param members the ids of the cluster's members
     * @param self    this member's id
     */
    public LogRetention(final int[] members, final int self) {
        this.members = members.clone();
        this.keepFrom = new long[members.length];
        this.self = self;
        Arrays.fill(keepFrom, UNKNOWN);
    }

    /** Member {@code member} needs the log from {@code position} on; a position lower than it said before is stale. */
    void onKeepFrom(final int member, final long position) {
        int index = -1;
        for (int i = 0; i < members.length; i++) {
            if (members[i] == member) {
                index = i;
            }
        }
        if (index < 0) {
            LOG.warn("cluster: ignored where member {} keeps its log from ({}): it is not in this member's list",
                    member, position);
            return;
        }
        if (position <= keepFrom[index]) {
            return;
        }
        keepFrom[index] = position;
        if (member == self) {
            ownKeepFrom = position;
        }
        long lowest = Long.MAX_VALUE;
        for (final long each : keepFrom) {
            lowest = Math.min(lowest, each);
        }
        floor = lowest;
    }

    /** @return the log position before which no member needs the log, or {@link #UNKNOWN}; any thread */
    public long floor() {
        return floor;
    }

    /** @return where this member said, in the log, that it keeps its log from, or {@link #UNKNOWN}; any thread */
    public long ownKeepFrom() {
        return ownKeepFrom;
    }
}
