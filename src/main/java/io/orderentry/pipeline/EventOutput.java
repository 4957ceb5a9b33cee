package io.orderentry.pipeline;

import com.lmax.disruptor.RingBuffer;

/**
 * Where the {@link MatcherStage} puts the events it fills: claim a slot, fill it, publish it. The service's is the
 * output ring; the snapshot writer's copy of the state applies each event at once instead.
 */
public interface EventOutput {

    /** @return the next slot's sequence */
    long next();

    /** @return the event of a claimed slot, to fill */
    EngineEvent get(long sequence);

    /** Hands a filled slot on. */
    void publish(long sequence);

    /** @return the output ring as an {@link EventOutput} */
    static EventOutput of(final RingBuffer<EngineEvent> ring) {
        return new EventOutput() {
            @Override
            public long next() {
                return ring.next();
            }

            @Override
            public EngineEvent get(final long sequence) {
                return ring.get(sequence);
            }

            @Override
            public void publish(final long sequence) {
                ring.publish(sequence);
            }
        };
    }
}
