package io.orderentry.cluster;

import io.aeron.cluster.ClusterMember;
import io.orderentry.config.ConfigException;
import io.orderentry.config.ConfigReader;
import io.orderentry.config.SettingNames;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Cluster mode's settings ({@code ORDERS_CLUSTER_*}, README "Cluster mode"); absent in single-node mode. Read from
 * the settings and checked by {@link #from}.
 *
 * @param members              Aeron Cluster's member list, {@code id,ingress,consensus,log,catchup,archive|...} with
 *                             each endpoint {@code host:port}
 * @param memberId             this member's id in that list
 * @param directory            where this member keeps the cluster's log (the archive), its state and the Aeron files
 * @param leaderTimeoutMillis  how long without a heartbeat from the leader before the followers elect another
 * @param answerTimeoutMillis  how long a request waits for its command to come back committed before it is answered
 *                             {@code 503} (its outcome then unknown: the client retries with the same clientOrderId)
 * @param purgeLog             whether this member deletes the archived log no member needs any more ({@link LogPurger})
 * @param segmentBytes         the archive's segment file length, the unit the log is purged in (a power of two); the
 *                             log's term length is this, at most 64 MiB. Fixed for a cluster's life: a member cannot
 *                             extend a log recorded with another term length.
 * @param fsync                whether the archive forces what it records (the log, the snapshots) to disk before it
 *                             counts it as recorded, so that a command is committed only once a majority has it on
 *                             disk (Aeron's fileSyncLevel 1); false: a majority holds it in memory or the page cache
 * @param secret               the secret the members share: a client of the cluster or of a member's archive must prove
 *                             it knows it ({@link MemberAuthenticator})
 */
public record ClusterConfig(String members, int memberId, Path directory, long leaderTimeoutMillis,
                            long answerTimeoutMillis, boolean purgeLog, int segmentBytes, boolean fsync,
                            ClusterSecret secret) {

    /** Aeron's term length for the cluster's log before this setting existed, and its largest here. */
    static final int MAX_LOG_TERM_LENGTH = 64 << 20;

    /** @return the term length of the cluster's log: the segment length, at most {@link #MAX_LOG_TERM_LENGTH} */
    public int logTermLength() {
        return Math.min(segmentBytes, MAX_LOG_TERM_LENGTH);
    }

    /**
     * @return how often the leader sends its heartbeat when it has nothing else to send: a tenth of the leader timeout
     *         (at least 10 ms), so that a follower misses ten before it calls an election
     */
    public long heartbeatIntervalMillis() {
        return Math.max(10, leaderTimeoutMillis / 10);
    }

    /**
     * @return Aeron's election timeout: how long an election's canvass waits for every member's vote before it goes on
     *         with a majority (it always waits this long when a member is dead), how long a ballot waits, and twice the
     *         longest random delay before a member nominates itself; a quarter of the leader timeout (at least 50 ms)
     */
    public long electionTimeoutMillis() {
        return Math.max(50, leaderTimeoutMillis / 4);
    }

    /** @return the parsed member list; throws IllegalArgumentException naming what is wrong */
    public ClusterMember[] parsedMembers() {
        final ClusterMember[] parsed;
        try {
            parsed = ClusterMember.parse(members);
        } catch (final RuntimeException e) {
            throw new IllegalArgumentException("not an Aeron Cluster member list (id,ingress,consensus,log,catchup,"
                    + "archive|...): " + e.getMessage());
        }
        return parsed;
    }

    /**
     * Cluster mode, when {@code cluster.members} is set: this member's id must be in the list, the list must hold 1, 3,
     * 5 or 7 members, the directory defaults to {@code cluster} beside the journal's, and the secret is required.
     *
     * @return cluster mode's settings; empty in single-node mode
     */
    public static Optional<ClusterConfig> from(final ConfigReader settings) {
        final String members = settings.string("cluster.members");
        if (members.isEmpty()) {
            return Optional.empty();
        }
        final ClusterConfig withoutSecret = new ClusterConfig(members, settings.intValue("cluster.member.id", 0, 1_000),
                settings.directoryOr("cluster.dir", "journal.dir", "cluster"),
                settings.longValue("cluster.leader.timeout.millis", 200, 600_000),
                settings.longValue("cluster.answer.timeout.millis", 100, 600_000), settings.bool("cluster.purge.log"),
                settings.powerOfTwo("cluster.segment.bytes", 64 << 10, 1 << 30), settings.bool("cluster.fsync"), null);
        try {
            final int count = withoutSecret.parsedMembers().length;
            withoutSecret.self();
            if (count != 1 && count != 3 && count != 5 && count != 7) {
                throw new IllegalArgumentException(count + " members: a cluster has 3, 5 or 7 (or 1, for trying it)");
            }
        } catch (final IllegalArgumentException e) {
            throw new ConfigException(SettingNames.envName("cluster.members") + ": " + e.getMessage());
        }
        return Optional.of(withoutSecret.withSecret(secret(settings)));
    }

    /** @return these settings with {@code secret} as the members' shared secret */
    private ClusterConfig withSecret(final ClusterSecret secret) {
        return new ClusterConfig(members, memberId, directory, leaderTimeoutMillis, answerTimeoutMillis, purgeLog,
                segmentBytes, fsync, secret);
    }

    /**
     * The secret the members share ({@code cluster.secret.file}): required in cluster mode, since without it anyone who
     * reaches a member's UDP ports could join as a client of the cluster or of its archive.
     */
    private static ClusterSecret secret(final ConfigReader settings) {
        final String key = "cluster.secret.file";
        final String file = settings.string(key);
        if (file.isBlank()) {
            throw new ConfigException(SettingNames.envName(key) + " is required in cluster mode: a file, readable"
                    + " by its owner only, holding a secret of at least " + ClusterSecret.MIN_BYTES
                    + " characters that every member shares (e.g. `openssl rand -base64 32`; docs/cluster.md,"
                    + " \"Who may talk to a member\")");
        }
        try {
            return ClusterSecret.read(Path.of(file));
        } catch (final IllegalArgumentException e) {
            throw new ConfigException(SettingNames.envName(key) + ": " + e.getMessage());
        }
    }

    /** @return the ids of the members in the list */
    public int[] memberIds() {
        final ClusterMember[] parsed = parsedMembers();
        final int[] ids = new int[parsed.length];
        for (int i = 0; i < parsed.length; i++) {
            ids[i] = parsed[i].id();
        }
        return ids;
    }

    /** @return this member's entry */
    public ClusterMember self() {
        for (final ClusterMember member : parsedMembers()) {
            if (member.id() == memberId) {
                return member;
            }
        }
        throw new IllegalArgumentException("member id " + memberId + " is not in the member list");
    }

    /** @return the host part of an endpoint {@code host:port} */
    static String host(final String endpoint) {
        final int colon = endpoint.lastIndexOf(':');
        return colon < 0 ? endpoint : endpoint.substring(0, colon);
    }
}
