package io.orderentry.query;

import io.orderentry.config.ConfigException;
import io.orderentry.config.ConfigReader;
import io.orderentry.config.SettingNames;

/**
 * What the order query view keeps ({@link OrderStateView}). Read from the settings and checked by {@link #from}.
 *
 * @param retainedFinalOrders how many final (filled, cancelled, expired, rejected) orders the view keeps for GET;
 *                            open orders are always kept
 */
public record QueryConfig(int retainedFinalOrders) {

    /**
     * @param dedupWindow the engine's {@code engine.dedup.window}: the view keeps at least as many final orders, so
     *                    that a retried order can always be answered with its state
     * @return the view's settings ({@code query.retained.final.orders})
     */
    public static QueryConfig from(final ConfigReader settings, final int dedupWindow) {
        final String key = "query.retained.final.orders";
        final int retained = settings.intValue(key, 1_000, 100_000_000);
        if (retained < dedupWindow) {
            throw new ConfigException(SettingNames.envName(key) + " (" + retained + ") must be at least "
                    + SettingNames.envName("engine.dedup.window") + " (" + dedupWindow
                    + "), so that a retried order can always be answered with its state");
        }
        return new QueryConfig(retained);
    }
}
