package io.orderentry.cluster;

import io.aeron.archive.client.AeronArchive;
import io.aeron.cluster.ConsensusModule;
import io.aeron.cluster.RecordingLog;
import org.agrona.CloseHelper;

import java.io.File;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * Deletes the part of this member's archived log that no member needs any more, so that the archive stays as large as
 * the log since the snapshots, not the log since the cluster began.
 *
 * <p>Aeron Cluster keeps the whole log: it has no purge of its own, and a member cannot simply cut its log at its newest
 * snapshot, because the leader sends a member that is behind the log from that member's own end. The rule here:
 * <ol>
 *   <li>Each member needs its log from its <b>second newest</b> snapshot on ({@link #keepFrom}): it recovers from the
 *       newest, or from the one before if the newest were unusable, and replays the log after it.</li>
 *   <li>Each member says so in the log itself ({@link ClusterIngressStage#sendKeepFrom}), so that every member learns what
 *       every other needs ({@link LogRetention}). A member's log end is past its snapshots, so the leader, whoever it
 *       is, never has to send anyone the log before what they said.</li>
 *   <li>Each member deletes its log's segments wholly before the lowest position every member said
 *       ({@link LogRetention#floor}), and, whatever the others need, its snapshots older than its own second newest
 *       (no other member uses them).</li>
 * </ol>
 * A member that is down holds the floor where it was, so the others keep the log it will need when it comes back. What
 * the rule cannot cover is a member that lost its disk: it cannot rebuild from the leader's log once that was purged,
 * and is rebuilt from a copy of another member's directory instead (docs/cluster.md, "Replacing a member's disk").
 *
 * <p>Runs on a thread of its own ({@code oe-cluster-log-purge}), every {@link #CHECK_MILLIS} ms; it reads the consensus
 * module's recording log (which snapshots this member has) and talks to its own archive. A failure is logged and tried
 * again at the next check: nothing is deleted unless every step before it succeeded.
 */
public final class LogPurger implements AutoCloseable {

    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(LogPurger.class);
    static final long CHECK_MILLIS = 2_000;
    /** A member says where it keeps its log from again after this long when the log has not shown it yet. */
    private static final long RESEND_NANOS = TimeUnit.SECONDS.toNanos(5);
    private static final long UNKNOWN = LogRetention.UNKNOWN;

    private final File clusterDirectory;
    private final Supplier<AeronArchive.Context> archive;
    private final LogRetention retention;
    private final ClusterIngressStage ingress;
    private final int member;
    private final Thread thread;

    private volatile boolean running = true;
    private volatile long logStart = UNKNOWN;
    private volatile long purgedBytes;
    private volatile long purgedSnapshots;
    private volatile long failures;
    private AeronArchive client;   // the purger's thread only
    private long purgedTo = UNKNOWN;
    private long snapshotsPurgedTo = UNKNOWN;
    private long sent = UNKNOWN;
    private long sentAt;

    /**
     * @param clusterDirectory the consensus module's directory, where the recording log is
     * @param archive          a new context for a client of this member's own archive, per connection
     */
    public LogPurger(final File clusterDirectory, final Supplier<AeronArchive.Context> archive,
                     final LogRetention retention, final ClusterIngressStage ingress, final int member) {
        this.clusterDirectory = clusterDirectory;
        this.archive = archive;
        this.retention = retention;
        this.ingress = ingress;
        this.member = member;
        this.thread = new Thread(this::run, "oe-cluster-log-purge");
        this.thread.setDaemon(true);
    }

    public void start() {
        thread.start();
    }

    private void run() {
        while (running) {
            try {
                check();
            } catch (final RuntimeException e) {
                failures++;
                disconnect();
                LOG.warn("cluster: the log purge failed; nothing more is deleted until it succeeds, tried again in"
                        + " {} ms: {}", CHECK_MILLIS, e.toString());
            }
            try {
                Thread.sleep(CHECK_MILLIS);
            } catch (final InterruptedException e) {
                break;
            }
        }
        disconnect();
    }

    /** One round: say where this member keeps its log from, and delete what nobody needs. */
    void check() {
        if (!new File(clusterDirectory, RecordingLog.RECORDING_LOG_FILE_NAME).exists()) {
            return;   // the consensus module has not written it yet
        }
        final List<RecordingLog.Entry> entries;
        final long logRecording;
        try (RecordingLog recordingLog = new RecordingLog(clusterDirectory, false)) {
            entries = new ArrayList<>(recordingLog.entries());
            logRecording = recordingLog.findLastTermRecordingId();
        }
        final long keep = keepFrom(entries);
        if (keep != UNKNOWN && keep > retention.ownKeepFrom()
                && (keep != sent || System.nanoTime() - sentAt > RESEND_NANOS) && ingress.sendKeepFrom(keep)) {
            sent = keep;
            sentAt = System.nanoTime();
        }
        final long floor = retention.floor();
        final long target = Math.min(floor, keep);
        final boolean purgeLog = floor != UNKNOWN && keep != UNKNOWN && target > purgedTo;
        final boolean purgeSnapshots = keep != UNKNOWN && keep > snapshotsPurgedTo;
        if (logRecording == UNKNOWN || logStart != UNKNOWN && !purgeLog && !purgeSnapshots) {
            return;
        }
        final AeronArchive connection = archive();
        final long[] recording = describe(connection, logRecording);
        if (recording == null) {
            throw new IllegalStateException("this member's archive has no log recording " + logRecording);
        }
        logStart = recording[0];
        if (purgeLog) {
            final long newStart = AeronArchive.segmentFileBasePosition(recording[0], target, (int) recording[1],
                    (int) recording[2]);
            if (newStart > recording[0]) {
                final long segments = connection.purgeSegments(logRecording, newStart);
                purgedBytes += newStart - recording[0];
                logStart = newStart;
                LOG.info("cluster: member {} deleted {} segment(s) of its log, {} bytes: it now starts at {} (every"
                        + " member keeps its log from {} on, this one from {})", member, segments,
                        newStart - recording[0], newStart, floor, keep);
            }
            purgedTo = target;
        }
        if (purgeSnapshots) {
            // only this member recovers from its snapshots: the older ones go whatever the other members need
            for (final long snapshot : snapshotsBefore(entries, keep)) {
                if (describe(connection, snapshot) != null) {
                    connection.purgeRecording(snapshot);
                    purgedSnapshots++;
                }
            }
            snapshotsPurgedTo = keep;
        }
    }

    /** @return the client of this member's archive, connected at the first use and again after a failure */
    private AeronArchive archive() {
        if (client == null) {
            client = AeronArchive.connect(archive.get());
        }
        return client;
    }

    private void disconnect() {
        if (client != null) {
            CloseHelper.quietClose(client);
            client = null;
        }
    }

    /** @return a recording's start position, term length and segment length; null if the archive has none such */
    private static long[] describe(final AeronArchive client, final long recordingId) {
        final long[] found = new long[3];
        final int count = client.listRecording(recordingId, (controlSessionId, correlationId, id, startTimestamp,
                stopTimestamp, startPosition, stopPosition, initialTermId, segmentFileLength, termBufferLength,
                mtuLength, sessionId, streamId, strippedChannel, originalChannel, sourceIdentity) -> {
            found[0] = startPosition;
            found[1] = termBufferLength;
            found[2] = segmentFileLength;
        });
        return count == 0 ? null : found;
    }

    /**
     * @return the log position of this member's second newest complete snapshot (the consensus module's and the
     *         service's, both valid, at one position), from which it needs its log; {@link LogRetention#UNKNOWN} while
     *         it has fewer than two
     */
    static long keepFrom(final List<RecordingLog.Entry> entries) {
        long newest = UNKNOWN;
        long second = UNKNOWN;
        for (final RecordingLog.Entry entry : entries) {
            if (isSnapshot(entry, 0) && hasModuleSnapshotAt(entries, entry.logPosition)) {
                if (entry.logPosition > newest) {
                    second = newest;
                    newest = entry.logPosition;
                } else if (entry.logPosition < newest && entry.logPosition > second) {
                    second = entry.logPosition;
                }
            }
        }
        return second;
    }

    /** @return the recordings of the snapshots (the module's and the service's) taken before {@code position} */
    static List<Long> snapshotsBefore(final List<RecordingLog.Entry> entries, final long position) {
        final List<Long> recordings = new ArrayList<>();
        if (position == UNKNOWN) {
            return recordings;
        }
        for (final RecordingLog.Entry entry : entries) {
            if (entry.type == RecordingLog.ENTRY_TYPE_SNAPSHOT && entry.logPosition < position) {
                recordings.add(entry.recordingId);
            }
        }
        return recordings;
    }

    private static boolean isSnapshot(final RecordingLog.Entry entry, final int serviceId) {
        return entry.type == RecordingLog.ENTRY_TYPE_SNAPSHOT && entry.isValid && entry.serviceId == serviceId;
    }

    private static boolean hasModuleSnapshotAt(final List<RecordingLog.Entry> entries, final long position) {
        for (final RecordingLog.Entry entry : entries) {
            if (isSnapshot(entry, ConsensusModule.Configuration.SERVICE_ID) && entry.logPosition == position) {
                return true;
            }
        }
        return false;
    }

    /** @return where this member's archived log starts now, or -1 before the purger has looked; any thread */
    public long logStart() {
        return logStart;
    }

    /** @return bytes of log deleted since start; any thread */
    public long purgedBytes() {
        return purgedBytes;
    }

    /** @return snapshot recordings deleted since start; any thread */
    public long purgedSnapshots() {
        return purgedSnapshots;
    }

    /** @return rounds that failed since start; any thread */
    public long failures() {
        return failures;
    }

    @Override
    public void close() {
        running = false;
        thread.interrupt();
        try {
            thread.join(5_000);
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
