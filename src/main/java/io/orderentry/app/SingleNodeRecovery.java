package io.orderentry.app;

import com.lmax.disruptor.RingBuffer;
import io.orderentry.audit.AuditTrail;
import io.orderentry.config.ConfigException;
import io.orderentry.engine.MarketBandRule;
import io.orderentry.http.rest.InputGateway;
import io.orderentry.instrument.Instrument;
import io.orderentry.instrument.TradingRules;
import io.orderentry.journal.DirectoryLock;
import io.orderentry.journal.JournalManifest;
import io.orderentry.journal.JournalPosition;
import io.orderentry.journal.JournalReader;
import io.orderentry.journal.JournalRecovery;
import io.orderentry.marketdata.MarketDataStage;
import io.orderentry.pipeline.EngineEvent;
import io.orderentry.pipeline.MatcherStage;
import io.orderentry.query.OrderStateView;
import io.orderentry.snapshot.ServiceState;
import io.orderentry.snapshot.SnapshotConfig;
import io.orderentry.snapshot.SnapshotStore;
import java.io.IOException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A single node's recovery, in this order: the journal directory's lock (one process per journal), the manifest check
 * (the configuration must not change what the journal's records mean), the newest usable snapshot into the engine, the
 * order view and the market data, then the journal's replay after it through the matcher into the output ring, and
 * the wait until every output consumer has applied what the replay produced. It also reads, after the replay, which
 * price bands the configuration changes. It does not fail the start itself: it throws, and the service fails the
 * start in its one way.
 *
 * <p>Threads: all of it on the starting thread, before the input ring starts (so the matcher is still this thread's
 * to drive); a stop on another thread ends the replay at its next record through {@code aborted}.
 */
final class SingleNodeRecovery {

    /** The service's logger: its lines keep the name the logs have always shown. */
    private static final Logger LOG = LoggerFactory.getLogger(OrderEntryService.class);

    private final Config config;
    private final List<String> symbols;
    private final Map<String, Integer> symbolIndex;
    private final AuditTrail auditTrail;
    private final PersistenceWiring persistence;
    private final MatcherStage matcherStage;
    private final OrderStateView view;
    private final MarketDataStage marketData;
    private final BooleanSupplier aborted;
    private final Consumer<DirectoryLock> lockTaken;
    private long recoveredFromSnapshot;
    private long replayedRecords;

    /**
     * @param aborted   true once a stop asks the replay to end
     * @param lockTaken gets the journal directory's lock as soon as it is held, for the stop to release
     */
    SingleNodeRecovery(final Config config, final List<String> symbols, final Map<String, Integer> symbolIndex,
                       final AuditTrail auditTrail, final PersistenceWiring persistence,
                       final MatcherStage matcherStage, final OrderStateView view, final MarketDataStage marketData,
                       final BooleanSupplier aborted, final Consumer<DirectoryLock> lockTaken) {
        this.config = config;
        this.symbols = symbols;
        this.symbolIndex = symbolIndex;
        this.auditTrail = auditTrail;
        this.persistence = persistence;
        this.matcherStage = matcherStage;
        this.view = view;
        this.marketData = marketData;
        this.aborted = aborted;
        this.lockTaken = lockTaken;
    }

    /** @return the journal sequence of the snapshot the replay started from (0: none) */
    long recoveredFromSnapshot() {
        return recoveredFromSnapshot;
    }

    /** @return the journal records the replay applied */
    long replayedRecords() {
        return replayedRecords;
    }

    /**
     * Takes the journal directory's lock, checks the configuration against the journal's manifest, loads the newest
     * usable snapshot and replays the journal after it through the matcher into the output ring.
     *
     * @throws ConfigException when the configuration changes what the journal's records mean
     * @throws IOException     when the journal or the snapshot cannot be read
     * @throws StoppedDuringStart when a stop comes during the replay
     */
    JournalRecovery replay() throws IOException {
        LOG.info("recovery: replaying the journal in {}", config.journal().directory().toAbsolutePath().normalize());
        // handed over at once: a stop releases it even when the check or the replay below fails
        lockTaken.accept(DirectoryLock.acquire(config.journal().directory(), DirectoryLock.JOURNAL, "journal"));
        checkJournalConfiguration();
        final JournalPosition from = restoreSnapshot();
        // who asked is decoded only for the commands the audit trail lacks: the others' records are in it
        final long audited = auditTrail.tail().isEmpty() ? Long.MAX_VALUE
                : auditTrail.tail().lastAuditedJournalSequence();
        final JournalRecovery recovery = JournalReader.recover(config.journal().directory(), symbolIndex, from, audited,
                command -> {
                    if (aborted.getAsBoolean()) {
                        throw new StoppedDuringStart();
                    }
                    matcherStage.replay(command);
                });
        if (recovery.truncatedTail() != null) {
            LOG.warn("recovery: cut a torn record off the journal tail: {} at offset {} ({} bytes, {})",
                    recovery.truncatedTail().file(), recovery.truncatedTail().offset(),
                    recovery.truncatedTail().bytesCut(), recovery.truncatedTail().reason());
        }
        replayedRecords = recovery.recordCount();
        LOG.info("recovery: replayed {} records from {} segment(s) in {} ms ({} records/s); last sequence {}",
                recovery.recordCount(), recovery.segmentCount(), Math.round(recovery.elapsedMillis()),
                Math.round(recovery.recordsPerSecond()), recovery.lastSequence());
        return recovery;
    }

    /**
     * Loads the newest snapshot that verifies, was written under today's configuration, and lies within what the
     * audit trail and the database already hold (the commands and events after a snapshot are replayed, and the
     * audit backfill and the persistence spool get only replayed ones), into the engine, the order view and the
     * market data.
     *
     * @return where the journal's replay starts: after the snapshot, or at its first record when none is usable
     */
    private JournalPosition restoreSnapshot() throws IOException {
        final SnapshotConfig snapshots = config.snapshots();
        if (!snapshots.enabled()) {
            LOG.info("recovery: snapshots are disabled; replaying the whole journal");
            return JournalPosition.START;
        }
        final SnapshotStore store = new SnapshotStore(snapshots.directory(), snapshots.keep());
        final long audited = auditTrail.tail().isEmpty() ? Long.MAX_VALUE : auditTrail.tail().lastAuditedJournalSequence();
        final long persisted = persistence.knownPersistedThrough();
        // With the database unreachable, the newest persisted sequence a snapshot recorded is what it holds at least
        // (its mark only rises); snapshots come newest first, so the first verified one carries the highest.
        final long[] recordedFloor = {-1};
        final long started = System.nanoTime();
        final SnapshotStore.Found found = store.newestUsable(header -> {
            final String incompatible = header.incompatibility(symbols, this::configurationDifferences);
            if (incompatible != null) {
                return incompatible;
            }
            if (header.position().sequence() > audited) {
                return "the audit trail records commands up to journal sequence " + audited + " only, and the commands"
                        + " after it must be replayed to be audited";
            }
            recordedFloor[0] = Math.max(recordedFloor[0], header.persistedThrough());
            if (persisted < 0 && header.eventSequence() > recordedFloor[0]) {
                return "PostgreSQL did not answer, and the snapshots record it holding events up to "
                        + recordedFloor[0] + " only; the events after that must be replayed to reach it";
            }
            if (persisted >= 0 && header.eventSequence() > persisted) {
                return "PostgreSQL holds events up to " + persisted + " only, and the events after it must be"
                        + " replayed to reach it";
            }
            return null;
        });
        if (found == null) {
            final long first = JournalReader.firstSegmentSequence(config.journal().directory());
            if (first > 1) {
                throw new IOException("no usable snapshot in " + store.directory() + " (each skipped one is logged above"
                        + " with the reason), and the journal starts at sequence " + first + ": its older segments were"
                        + " removed by retention (" + config.snapshots().archive() + " holds them if it was 'archive')."
                        + " Restore a snapshot, or the archived segments, or make the database reachable");
            }
            LOG.info("recovery: no usable snapshot in {}; replaying the whole journal", store.directory());
            return JournalPosition.START;
        }
        try {
            store.read(found.file(), new ServiceState(matcherStage.matcher(), view, marketData));
        } catch (final IOException e) {
            throw new IOException("snapshot " + found.file() + " passed its checksum but could not be restored ("
                    + e.getMessage() + "); move it out of " + store.directory() + " to start from an older one", e);
        }
        recoveredFromSnapshot = found.header().position().sequence();
        LOG.info("recovery: loaded snapshot {} (journal sequence {}, event sequence {}, {} resting orders) in {} ms;"
                + " replaying the journal after it", found.file().getFileName(), found.header().position().sequence(),
                found.header().eventSequence(), matcherStage.matcher().restingOrderCount(),
                TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started));
        return found.header().position();
    }

    /** @return how today's configuration would change what records written under {@code recorded} mean */
    private List<String> configurationDifferences(final Map<String, String> recorded) {
        return JournalManifest.differences(recorded, JournalManifest.entries(config.instruments(), config.engine()));
    }

    /** Refuses to replay under a configuration that changes what the journal's records mean (JournalManifest). */
    private void checkJournalConfiguration() throws IOException {
        final JournalManifest.Result result = JournalManifest.check(config.journal().directory(), config.instruments(),
                config.engine());
        for (final String change : result.tickChanges()) {
            LOG.warn("recovery: {}: resting orders keep their prices and can still trade; new orders and amends must be"
                    + " on the new tick; recorded in {}", change, JournalManifest.FILE_NAME);
        }
        switch (result.outcome()) {
            case CREATED -> LOG.info("recovery: new journal; recorded its configuration in {}",
                    JournalManifest.FILE_NAME);
            case MATCHED -> LOG.info("recovery: the configuration matches the one the journal was written under");
            case EXTENDED -> LOG.info("recovery: the configuration matches the journal's; new instruments or tick sizes"
                    + " recorded in {}", JournalManifest.FILE_NAME);
            case RECORDED_FOR_EXISTING_JOURNAL -> LOG.warn("recovery: this journal was written before {} existed, so"
                    + " the configuration could not be checked against the one its records were written under; it is"
                    + " recorded now and checked from the next start on", JournalManifest.FILE_NAME);
            default -> throw new IllegalStateException("unhandled outcome");
        }
    }

    /** Waits until the output consumers have applied everything the replay produced. */
    void awaitConsumers(final RingBuffer<EngineEvent> outputRing) {
        final long target = matcherStage.matcher().lastEventSequence();
        final long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(10);
        while (view.lastEventSequence() < target || outputRing.remainingCapacity() < outputRing.getBufferSize()) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("output consumers did not catch up with the replay in 10 minutes");
            }
            try {
                Thread.sleep(1);
            } catch (final InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for the replay to drain", e);
            }
        }
    }

    /**
     * @return per instrument, the band the configuration asks for where it differs from the engine's after recovery
     *         (which the journal and snapshot decided), or where the engine's band was set under an older
     *         {@link MarketBandRule} than this build's, else -1; called on the recovering thread before the input ring
     *         starts
     */
    int[] priceBandChanges() {
        final int[] changes = new int[config.instruments().size()];
        for (int symbol = 0; symbol < changes.length; symbol++) {
            final int configured = config.tradingRules().priceBand(symbol);
            final boolean same = matcherStage.matcher().priceBand(symbol) == configured
                    && (configured == 0 || matcherStage.matcher().priceBandRule(symbol) == MarketBandRule.CURRENT);
            changes[symbol] = same ? -1 : configured;
        }
        return changes;
    }

    /**
     * Journals each band change as a command ahead of any order (HTTP still answers 503 until READY), so that the
     * journal says from which command on a band applied and a replay applies it there; called right after the input
     * ring starts.
     *
     * @return false when the input ring is full (the start then fails)
     */
    boolean journalPriceBandChanges(final InputGateway gateway, final int[] changes) {
        for (int symbol = 0; symbol < changes.length; symbol++) {
            if (changes[symbol] < 0) {
                continue;
            }
            if (!gateway.trySetPriceBand(symbol, changes[symbol])) {
                return false;
            }
            LOG.info("price band of {}: {}% from now on, MARKET orders trading inside both of its edges ({};"
                            + " journaled)", config.instruments().get(symbol).symbol(),
                    TradingRules.percent(changes[symbol]), MarketBandRule.CURRENT);
        }
        return true;
    }

    /**
     * @return per instrument, {maker, taker} fee rates the configuration asks for where they differ from the engine's
     *         after recovery (which the journal and snapshot decided), else null; all null without balances. Called on
     *         the recovering thread before the input ring starts.
     */
    int[][] feeChanges() {
        final int[][] changes = new int[config.instruments().size()][];
        final io.orderentry.engine.RiskRules engine = matcherStage.matcher().riskRules();
        if (engine == null) {
            return changes;
        }
        for (int symbol = 0; symbol < changes.length; symbol++) {
            final int maker = config.assets().makerFees()[symbol];
            final int taker = config.assets().takerFees()[symbol];
            if (engine.makerFeeRate(symbol) != maker || engine.takerFeeRate(symbol) != taker) {
                changes[symbol] = new int[] {maker, taker};
            }
        }
        return changes;
    }

    /**
     * Journals each fee change as a command ahead of any order, like the band changes, so that replay settles every
     * trade at the rates it was settled at; called right after the input ring starts.
     *
     * @return false when the input ring is full (the start then fails)
     */
    boolean journalFeeChanges(final InputGateway gateway, final int[][] changes) {
        for (int symbol = 0; symbol < changes.length; symbol++) {
            if (changes[symbol] == null) {
                continue;
            }
            if (!gateway.trySetFees(symbol, changes[symbol][0], changes[symbol][1])) {
                return false;
            }
            LOG.info("fees of {}: maker {}, taker {} from now on (journaled)", config.instruments().get(symbol).symbol(),
                    io.orderentry.instrument.Assets.rate(changes[symbol][0]),
                    io.orderentry.instrument.Assets.rate(changes[symbol][1]));
        }
        return true;
    }

    /** @return instrument symbol to engine index */
    static Map<String, Integer> symbolIndex(final Config config) {
        final Map<String, Integer> index = new HashMap<>();
        for (final Instrument instrument : config.instruments()) {
            index.put(instrument.symbol(), instrument.index());
        }
        return index;
    }
}
