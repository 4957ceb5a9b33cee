package io.orderentry.app;

import com.lmax.disruptor.BlockingWaitStrategy;
import com.lmax.disruptor.BusySpinWaitStrategy;
import com.lmax.disruptor.SleepingWaitStrategy;
import com.lmax.disruptor.WaitStrategy;
import com.lmax.disruptor.YieldingWaitStrategy;

/** Maps the configured name to a Disruptor wait strategy. */
final class WaitStrategies {

    private WaitStrategies() {
    }

    /**
     * @param name one of blocking, sleeping, yielding, busy-spin (validated by {@link ConfigLoader})
     * @return a new strategy; each ring gets its own
     */
    static WaitStrategy of(final String name) {
        return switch (name) {
            case "blocking" -> new BlockingWaitStrategy();
            case "sleeping" -> new SleepingWaitStrategy();
            case "yielding" -> new YieldingWaitStrategy();
            case "busy-spin" -> new BusySpinWaitStrategy();
            default -> throw new ConfigException("unknown wait strategy " + name);
        };
    }
}
