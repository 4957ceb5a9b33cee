package io.orderentry.persistence;

import com.lmax.disruptor.EventHandler;
import io.orderentry.pipeline.EngineEvent;
import java.io.IOException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The persistence consumer of the output ring. It never touches the database: it appends every sequenced
 * event above {@code skipThrough} to the local spool and hands the spool to the OS at the end of each
 * batch, so the ring never waits on PostgreSQL. The {@link PersistenceWriter} takes the events from there.
 * It runs beside the order view and gates nothing but the ring's wrap-around.
 *
 * <p>If the spool cannot be written (disk full, an event that cannot be encoded), the stage stops spooling,
 * keeps the reason in {@link #failure()} and lets trading go on; the journal still has every event and the
 * next start rebuilds the spool from it.
 *
 * <p>Threads: {@link #onEvent}, {@link #onStart} and {@link #onShutdown} run on the stage's own thread;
 * the accessors may be called from any thread.
 */
public final class PersistenceStage implements EventHandler<EngineEvent> {

    private static final Logger LOG = LoggerFactory.getLogger(PersistenceStage.class);

    private final SpoolWriter spool;
    private final long skipThrough;

    private long seenSequence;
    private long seenMicros;
    private volatile long lastSeenSequence;
    private volatile long lastSeenMicros;
    private volatile String failure;

    /**
     * @param spool       the spool, owned by this stage's thread from now on
     * @param skipThrough events up to this sequence are known to be in the database and are not spooled
     */
    PersistenceStage(final SpoolWriter spool, final long skipThrough) {
        this.spool = spool;
        this.skipThrough = skipThrough;
    }

    @Override
    public void onEvent(final EngineEvent event, final long sequence, final boolean endOfBatch) {
        if (event.type.isSequenced()) {
            seenSequence = event.eventSequence;
            seenMicros = event.timestampMicros;
            if (event.eventSequence > skipThrough && failure == null) {
                try {
                    spool.append(event);
                } catch (final IOException | IllegalArgumentException e) {
                    fail("appending event " + event.eventSequence, e);
                }
            }
        }
        if (endOfBatch) {
            if (failure == null) {
                try {
                    spool.flush();
                } catch (final IOException e) {
                    fail("writing the spool after event " + seenSequence, e);
                }
            }
            lastSeenMicros = seenMicros;
            lastSeenSequence = seenSequence;
        }
    }

    @Override
    public void onStart() {
        LOG.debug("persistence stage started; spooling events above sequence {}", skipThrough);
    }

    @Override
    public void onShutdown() {
        try {
            spool.close();
        } catch (final IOException e) {
            LOG.warn("closing the persistence spool failed", e);
        }
    }

    /** @return the sequence of the last engine event this stage has seen (spooled or skipped) */
    public long lastSeenSequence() {
        return lastSeenSequence;
    }

    /** @return the engine timestamp of that event, microseconds since the epoch */
    public long lastSeenMicros() {
        return lastSeenMicros;
    }

    /** @return the sequence of the last event the writer may read from the spool */
    public long spooledSequence() {
        return spool.flushedSequence();
    }

    /** @return the sequence up to which events were skipped at startup */
    public long skipThrough() {
        return skipThrough;
    }

    /** @return why spooling stopped, or null while it works */
    public String failure() {
        return failure;
    }

    /** @return bytes written to the spool since start */
    long spooledBytes() {
        return spool.flushedBytes();
    }

    private void fail(final String what, final Exception e) {
        failure = what + " failed: " + e.getMessage();
        LOG.error("persistence: {} failed; events after sequence {} are no longer spooled and will reach "
                + "PostgreSQL only after a restart (the journal has them). Order entry continues.", what,
                spool.flushedSequence(), e);
    }
}
