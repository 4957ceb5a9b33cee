package io.orderentry.bench.persistence;

import io.orderentry.engine.OrderType;
import io.orderentry.engine.Side;
import io.orderentry.engine.TimeInForce;
import io.orderentry.pipeline.CommandType;
import io.orderentry.pipeline.OrderCommand;
import java.util.Random;

/**
 * A seeded stream of realistic commands for two instruments: mostly limit orders around a mid price
 * (some post-only, IOC, FOK), some market orders, about one cancel in eight. Through the matcher this
 * gives roughly 2.3 engine events per command, a third of orders trading.
 */
final class CommandGenerator {

    private final Random random;
    private long sequence;
    private long micros = 1_790_000_000_000_000L;

    CommandGenerator(final long seed) {
        this.random = new Random(seed);
    }

    /** Fills {@code c} with the next command; {@code lastOrderId} bounds the ids a cancel may name. */
    void next(final OrderCommand c, final long lastOrderId) {
        c.reset();
        c.sequence = ++sequence;
        micros += 1 + random.nextInt(20);
        c.timestampMicros = micros;
        if (lastOrderId > 0 && random.nextInt(8) == 0) {
            c.type = CommandType.CANCEL;
            c.orderId = Math.max(1, lastOrderId - random.nextInt(2_000));
            return;
        }
        c.type = CommandType.PLACE;
        c.symbol = random.nextInt(2);
        c.side = random.nextBoolean() ? Side.BUY : Side.SELL;
        c.accountId = "acct-" + random.nextInt(1_000);
        c.clientOrderId = random.nextInt(4) == 0 ? null : "c-" + sequence;
        c.quantity = 1 + random.nextInt(40);
        final long mid = c.symbol == 0 ? 5_000_000 : 300_000;
        c.price = c.side == Side.BUY ? mid - 10 + random.nextInt(14) : mid - 3 + random.nextInt(14);
        final int kind = random.nextInt(100);
        if (kind < 5) {
            c.orderType = OrderType.MARKET;
            c.timeInForce = TimeInForce.IOC;
            c.price = 0;
        } else {
            c.orderType = OrderType.LIMIT;
            c.timeInForce = kind < 10 ? TimeInForce.IOC : kind < 13 ? TimeInForce.FOK : TimeInForce.GTC;
            c.postOnly = kind >= 13 && kind < 20;
        }
    }
}
