package io.orderentry.testing;

import io.orderentry.pipeline.EngineEvent;
import io.orderentry.pipeline.EventOutput;
import java.util.ArrayList;
import java.util.List;

/**
 * An {@link EventOutput} that keeps each event the {@link io.orderentry.pipeline.MatcherStage} fills as an object of
 * its own, so tests get the engine's events exactly as the service's output ring carries them. Keeps only the
 * sequenced ones (accepted, trade, updated): command completions are for the replies and the audit trail.
 */
public final class CollectingOutput implements EventOutput {

    private final List<EngineEvent> events = new ArrayList<>();
    private EngineEvent current;
    private long next;

    @Override
    public long next() {
        current = new EngineEvent();
        return ++next;
    }

    @Override
    public EngineEvent get(final long sequence) {
        return current;
    }

    @Override
    public void publish(final long sequence) {
        if (current.type.isSequenced()) {
            events.add(current);
        }
    }

    /** @return the sequenced events so far, oldest first (the live list) */
    public List<EngineEvent> events() {
        return events;
    }
}
