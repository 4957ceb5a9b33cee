package io.orderentry.app;

import com.lmax.disruptor.BusySpinWaitStrategy;
import com.lmax.disruptor.EventHandler;
import com.lmax.disruptor.SleepingWaitStrategy;
import com.lmax.disruptor.WaitStrategy;
import com.lmax.disruptor.YieldingWaitStrategy;
import io.orderentry.config.ConfigException;
import io.orderentry.pipeline.StageWaitStrategy;

/**
 * Maps the configured name to a Disruptor wait strategy. {@code blocking} is {@link StageWaitStrategy}, which also
 * blocks while a stage waits for the stage before it (Disruptor's own blocking strategy spins there).
 */
final class WaitStrategies {

    private WaitStrategies() {
    }

    /**
     * @param name one of blocking, sleeping, yielding, busy-spin (checked by {@code PipelineConfig.from})
     * @return a new strategy; each ring gets its own
     */
    static WaitStrategy of(final String name) {
        return switch (name) {
            case "blocking" -> new StageWaitStrategy();
            case "sleeping" -> new SleepingWaitStrategy();
            case "yielding" -> new YieldingWaitStrategy();
            case "busy-spin" -> new BusySpinWaitStrategy();
            default -> throw new ConfigException("unknown wait strategy " + name);
        };
    }

    /**
     * @param strategy the ring's strategy
     * @param stage    a stage that other stages of the ring run after
     * @param <T>      the ring's event type
     * @return the stage, made to wake its dependents at the end of each batch when the ring blocks
     */
    static <T> EventHandler<T> upstream(final WaitStrategy strategy, final EventHandler<T> stage) {
        return strategy instanceof StageWaitStrategy blocking ? blocking.signalling(stage) : stage;
    }
}
