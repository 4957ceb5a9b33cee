package io.orderentry.snapshot;

import io.orderentry.engine.EngineConfig;
import io.orderentry.journal.JournalPosition;
import io.orderentry.journal.JournalRetention;
import io.orderentry.journal.JournalTail;
import io.orderentry.marketdata.MarketDataConfig;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes snapshots without stopping the engine. Its thread ({@code oe-snapshot}) keeps a {@link Replica} of the
 * state: it loads the newest usable snapshot (or starts empty), then follows the journal's durable records a
 * fraction of a second behind the engine, and writes a snapshot of the replica when one is due: after
 * {@code everyCommands} commands or {@code intervalMillis} since the last, on request ({@link #request}) and at a
 * graceful stop ({@link #close}). The live engine, order view and market data are never read or paused; the cost is
 * the replica's memory (about as much again as the live state) and its CPU (each command executed a second time).
 *
 * <p>A failed write is logged and retried when the next one is due; a journal the replica cannot follow stops
 * snapshots (the service goes on; {@link #failure()} says why).
 *
 * <p>Threads: {@link #start}, {@link #request} and {@link #close} from any thread; the rest on {@code oe-snapshot}.
 */
public final class Snapshotter implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(Snapshotter.class);
    private static final long POLL_MILLIS = 200;

    /** What the replica is built from. */
    public record Layout(List<String> instruments, Map<String, String> configuration,
                         java.util.function.Function<Map<String, String>, List<String>> differences,
                         EngineConfig limits, int retainedFinalOrders, MarketDataConfig marketData,
                         boolean reserveStorage) {
    }

    private final SnapshotConfig config;
    private final SnapshotStore store;
    private final Layout layout;
    private final Path journalDirectory;
    private final Map<String, Integer> symbolIndex;
    private final LongSupplier durableSequence;
    private final LongSupplier persistedSequence;
    private final JournalRetention retention;
    private final Object lock = new Object();
    private final List<CompletableFuture<Path>> requests = new ArrayList<>();
    private final Thread thread;

    private volatile boolean stopping;
    private volatile boolean snapshotOnStop;
    private volatile String failure;
    private volatile long lastSequence = -1;
    private volatile long followedSequence = -1;
    private volatile long lastWriteMillis;
    private volatile long lastBytes;
    private volatile long written;
    private volatile long failedWrites;
    private volatile long failedRetentions;

    /**
     * @param durableSequence   the journal's last durable sequence (the writer's {@code lastSequence()})
     * @param persistedSequence the event sequence up to which PostgreSQL holds every event now, -1 when not known,
     *                          {@link Long#MAX_VALUE} when persistence is disabled
     */
    public Snapshotter(final SnapshotConfig config, final Layout layout, final Path journalDirectory,
                       final Map<String, Integer> symbolIndex, final LongSupplier durableSequence,
                       final LongSupplier persistedSequence) {
        this.config = config;
        this.store = new SnapshotStore(config.directory(), config.keep(), config.writeBytesPerSecond());
        this.layout = layout;
        this.journalDirectory = journalDirectory;
        this.symbolIndex = symbolIndex;
        this.durableSequence = durableSequence;
        this.persistedSequence = persistedSequence;
        this.retention = new JournalRetention(journalDirectory, config.retention(), config.archive());
        this.thread = new Thread(this::run, "oe-snapshot");
        this.thread.setDaemon(true);
    }

    /** Starts following the journal. */
    public void start() {
        thread.start();
    }

    /**
     * Asks for a snapshot of everything journaled so far.
     *
     * @return completes with the file once written (at once with the newest one if nothing was journaled since), or
     *         exceptionally if it cannot be written
     */
    public CompletableFuture<Path> request() {
        final CompletableFuture<Path> done = new CompletableFuture<>();
        synchronized (lock) {
            if (failure != null) {
                done.completeExceptionally(new IllegalStateException(failure));
                return done;
            }
            if (stopping) {
                done.completeExceptionally(new IllegalStateException("the service is stopping"));
                return done;
            }
            requests.add(done);
            lock.notifyAll();
        }
        return done;
    }

    /** @return why snapshots stopped, or null while they work */
    public String failure() {
        return failure;
    }

    /** @return journal sequence of the last snapshot written by this process, -1 before the first */
    public long lastSequence() {
        return lastSequence;
    }

    /** @return the journal sequence the replica has caught up to, -1 while it loads */
    public long followedSequence() {
        return followedSequence;
    }

    /** @return how long the last write took, milliseconds */
    public long lastWriteMillis() {
        return lastWriteMillis;
    }

    /** @return size of the last snapshot written, bytes */
    public long lastBytes() {
        return lastBytes;
    }

    /** @return snapshots written by this process */
    public long written() {
        return written;
    }

    /**
     * @return runs of snapshot and journal retention that failed, or that removed no journal segment because a kept
     *         snapshot could not be read
     */
    public long failedRetentions() {
        return failedRetentions;
    }

    /** @return snapshot writes that failed */
    public long failedWrites() {
        return failedWrites;
    }

    /**
     * Stops the thread; first, if {@code snapshotOnShutdown} is configured, writes a snapshot of everything the
     * journal holds (call after the journal's last write). Waits at most {@code timeoutMillis}.
     */
    @Override
    public void close() {
        close(TimeUnit.SECONDS.toMillis(60));
    }

    /** {@link #close()} with a bound on the wait. */
    public void close(final long timeoutMillis) {
        synchronized (lock) {
            snapshotOnStop = config.onShutdown();
            stopping = true;
            lock.notifyAll();
        }
        if (!thread.isAlive()) {
            return;
        }
        try {
            thread.join(timeoutMillis);
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (thread.isAlive()) {
            LOG.warn("snapshot: the writer did not finish within {} ms; the next start replays from the last"
                    + " snapshot written", timeoutMillis);
        }
    }

    private void run() {
        lowerPriority();
        final Replica replica = new Replica(layout.instruments().size(), layout.limits(),
                layout.retainedFinalOrders(), layout.marketData());
        if (layout.reserveStorage()) {
            replica.reserveStorage();
        }
        final JournalTail tail;
        try {
            final int removed = store.removeTemporaries();
            if (removed > 0) {
                LOG.warn("snapshot: removed {} partly written snapshot file(s) left by an interrupted write", removed);
            }
            tail = new JournalTail(journalDirectory, symbolIndex, load(replica));
        } catch (final IOException | RuntimeException e) {
            fail("loading the state to follow the journal from failed: " + e.getMessage(), e);
            return;
        }
        long lastSnapshotSequence = tail.position().sequence();
        long lastSnapshotMillis = System.currentTimeMillis();
        while (true) {
            final boolean stop;
            final List<CompletableFuture<Path>> asked;
            synchronized (lock) {
                if (!stopping && requests.isEmpty()) {
                    try {
                        lock.wait(POLL_MILLIS);
                    } catch (final InterruptedException e) {
                        Thread.currentThread().interrupt();
                        return;
                    }
                }
                stop = stopping;
                asked = new ArrayList<>(requests);
                requests.clear();
            }
            try {
                final long durable = durableSequence.getAsLong();
                tail.readUntil(durable, replica);
                replica.endOfBatch();
                followedSequence = tail.position().sequence();
            } catch (final IOException | RuntimeException e) {
                fail("following the journal failed at " + tail.position() + ": " + e.getMessage(), e);
                asked.forEach(r -> r.completeExceptionally(e));
                return;
            }
            final long sequence = tail.position().sequence();
            final long now = System.currentTimeMillis();
            final boolean due = stop ? snapshotOnStop && sequence > lastSnapshotSequence
                    : !asked.isEmpty() && sequence > lastSnapshotSequence
                    || config.everyCommands() > 0 && sequence - lastSnapshotSequence >= config.everyCommands()
                    || config.intervalMillis() > 0 && sequence > lastSnapshotSequence
                    && now - lastSnapshotMillis >= config.intervalMillis();
            if (due) {
                try {
                    final Path file = write(replica, tail.position());
                    lastSnapshotSequence = sequence;
                    lastSnapshotMillis = now;
                    asked.forEach(r -> r.complete(file));
                } catch (final IOException | RuntimeException e) {
                    failedWrites++;
                    LOG.error("snapshot: writing the snapshot at journal sequence {} failed; retrying when the next is"
                            + " due: {}", sequence, e.getMessage(), e);
                    asked.forEach(r -> r.completeExceptionally(e));
                }
                try {
                    retain();
                } catch (final IOException | RuntimeException e) {
                    failedRetentions++;
                    LOG.error("snapshot: removing old snapshots or journal segments failed; they stay on disk and it is"
                            + " tried again after the next snapshot: {}", e.getMessage(), e);
                }
            } else if (!asked.isEmpty()) {
                answerWithNewest(asked);
            }
            if (stop) {
                return;
            }
        }
    }

    /**
     * Gives this thread the lowest CPU priority (nice 19): on a machine whose cores the engine, the event loops and
     * the journal keep busy, the replica then takes only the CPU they leave, and a snapshot is written later rather
     * than answers later. Linux applies a nice value per thread; an unprivileged process may always lower its own.
     */
    private static void lowerPriority() {
        try {
            final String tid = Path.of("/proc/thread-self").toRealPath().getFileName().toString();
            final Process renice = new ProcessBuilder("renice", "-n", "19", "-p", tid).redirectErrorStream(true).start();
            final String output = new String(renice.getInputStream().readAllBytes()).trim();
            if (renice.waitFor() == 0) {
                LOG.info("snapshot: the writer runs at the lowest CPU priority (nice 19, thread {})", tid);
            } else {
                LOG.warn("snapshot: could not lower the writer's CPU priority ({}); it competes with order entry for"
                        + " the CPU", output);
            }
        } catch (final IOException | RuntimeException e) {
            LOG.warn("snapshot: could not lower the writer's CPU priority ({}); it competes with order entry for the"
                    + " CPU", e.toString());
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Loads the newest snapshot that verifies into the replica; none: starts at the journal's first record. */
    private JournalPosition load(final Replica replica) throws IOException {
        final SnapshotStore.Found found = store.newestUsable(
                header -> header.incompatibility(layout.instruments(), layout.differences()));
        if (found == null) {
            LOG.info("snapshot: no usable snapshot; the writer follows the journal from its first record");
            return JournalPosition.START;
        }
        store.read(found.file(), replica.state());
        lastSequence = found.header().position().sequence();
        LOG.info("snapshot: the writer follows the journal from {} (journal sequence {})", found.file().getFileName(),
                found.header().position().sequence());
        return found.header().position();
    }

    private Path write(final Replica replica, final JournalPosition position) throws IOException {
        final long started = System.nanoTime();
        final SnapshotHeader header = new SnapshotHeader(position, replica.state().matcher().lastEventSequence(),
                recordedPersisted(), System.currentTimeMillis(), layout.instruments(), layout.configuration());
        final Path file = store.write(header, replica.state(), !stopping);   // at a stop nothing waits: unpaced
        final long bytes = Files.size(file);
        lastWriteMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
        lastBytes = bytes;
        lastSequence = position.sequence();
        written++;
        LOG.info("snapshot: wrote {} ({} bytes, journal sequence {}, {} resting orders) in {} ms", file.getFileName(),
                bytes, position.sequence(), replica.state().matcher().restingOrderCount(), lastWriteMillis);
        return file;
    }

    private long recordedPersisted() {
        final long persisted = persistedSequence.getAsLong();
        return persisted == Long.MAX_VALUE ? -1 : persisted;
    }

    /**
     * Keeps the newest {@code keep} snapshots and, beyond them, the newest one whose events PostgreSQL already holds
     * (a restart can only start from such a one; while the database lags, that may be an older one); deletes the rest;
     * then removes (per {@code journal.retention}) the journal segments wholly before the oldest snapshot kept. When
     * no snapshot is within what the database holds, no segment is removed: the next start may need them all.
     */
    private void retain() throws IOException {
        final long persisted = persistedSequence.getAsLong();
        Path withinDatabase = null;
        for (final Path file : store.list()) {
            try {
                if (store.header(file).eventSequence() <= persisted) {
                    withinDatabase = file;
                    break;
                }
            } catch (final IOException e) {
                LOG.warn("snapshot: {} cannot be read and does not count for retention: {}", file.getFileName(),
                        e.getMessage());
            }
        }
        final List<Path> kept = store.prune(withinDatabase == null ? java.util.Set.of() : java.util.Set.of(withinDatabase));
        if (withinDatabase == null || config.retention() == JournalRetention.Mode.KEEP) {
            return;
        }
        JournalPosition oldest = null;
        for (final Path file : kept) {
            try {
                final JournalPosition position = store.header(file).position();
                if (oldest == null || position.sequence() < oldest.sequence()) {
                    oldest = position;
                }
            } catch (final IOException e) {
                // a kept snapshot we cannot read: remove nothing rather than guess which segments it needs
                failedRetentions++;
                LOG.warn("snapshot: {}, one of the snapshots kept, cannot be read ({}); no journal segment is removed"
                        + " this time, so the journal grows until a later snapshot's retention succeeds. A restart"
                        + " cannot start from that file; check the snapshot directory's disk",
                        file.getFileName(), e.getMessage());
                return;
            }
        }
        final List<Path> removed = retention.removeBefore(oldest);
        if (!removed.isEmpty()) {
            LOG.info("snapshot: {} {} journal segment(s) before journal sequence {} (the oldest snapshot kept): {}",
                    config.retention() == JournalRetention.Mode.ARCHIVE ? "archived" : "deleted", removed.size(),
                    oldest.sequence(), removed.get(0).getFileName() + (removed.size() > 1 ? " .. "
                            + removed.get(removed.size() - 1).getFileName() : ""));
        }
    }

    private void answerWithNewest(final List<CompletableFuture<Path>> asked) {
        try {
            final List<Path> files = store.list();
            if (files.isEmpty()) {
                asked.forEach(r -> r.completeExceptionally(new IllegalStateException("nothing journaled yet")));
            } else {
                asked.forEach(r -> r.complete(files.get(0)));
            }
        } catch (final IOException e) {
            asked.forEach(r -> r.completeExceptionally(e));
        }
    }

    private void fail(final String why, final Exception e) {
        synchronized (lock) {
            failure = why;
            for (final CompletableFuture<Path> r : requests) {
                r.completeExceptionally(new IllegalStateException(why, e));
            }
            requests.clear();
        }
        LOG.error("snapshot: {}; no more snapshots until a restart (order entry goes on)", why, e);
    }
}
