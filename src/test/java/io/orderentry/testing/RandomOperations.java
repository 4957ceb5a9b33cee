package io.orderentry.testing;

import io.orderentry.engine.MarketBandRule;
import io.orderentry.engine.RejectReason;
import io.orderentry.engine.SelfTradePrevention;
import io.orderentry.engine.Side;
import io.orderentry.pipeline.CommandType;
import io.orderentry.pipeline.OrderCommand;
import java.util.Random;

/**
 * {@link RandomCommands} with the order operations mixed in, for the tests that follow the engine through them: 12%
 * amends of any id handed out so far (so some are of orders no longer open, and some reprice across the book), 2%
 * cancel-alls of an account (one instrument or all, from a client or a dead man's switch), now and then a new price
 * band for an instrument (20% of the reference, 2% or none); the rest as {@link RandomCommands#fill}, a third of the
 * places with a self-trade prevention mode other than NONE (20 accounts, so orders meet their own account's).
 */
public final class RandomOperations {

    private static final SelfTradePrevention[] STP_MODES = SelfTradePrevention.values();
    private static final int[] BANDS = {2_000, 200, 0};

    private RandomOperations() {
    }

    /**
     * Fills {@code c} with the next command; sequence and timestamp are the caller's.
     *
     * @param lastOrderId the highest order id handed out so far (0: none, so no cancel or amend)
     */
    public static void fill(final Random random, final OrderCommand c, final int symbols, final long lastOrderId) {
        final int kind = random.nextInt(1_000);
        if (kind < 120 && lastOrderId > 0) {
            clear(c);
            c.type = CommandType.AMEND;
            c.orderId = 1 + (long) random.nextInt((int) Math.min(Integer.MAX_VALUE, lastOrderId));
            final int terms = random.nextInt(3);
            final Side side = random.nextBoolean() ? Side.BUY : Side.SELL;
            c.price = terms == 0 ? 0 : side == Side.BUY ? 700 + random.nextInt(330) : 1_000 + random.nextInt(330) - 30;
            c.quantity = terms == 1 ? 0 : 1 + random.nextInt(20);
        } else if (kind < 140) {
            clear(c);
            c.type = CommandType.CANCEL_ALL;
            c.accountId = "acct-" + random.nextInt(20);
            c.symbol = random.nextInt(symbols + 1) - 1;
            c.cancelAllCause = random.nextBoolean() ? RejectReason.CANCEL_ALL : RejectReason.CANCEL_ALL_AFTER;
        } else if (kind < 143) {
            clear(c);
            c.type = CommandType.SET_PRICE_BAND;
            c.symbol = random.nextInt(symbols);
            c.priceBandBasisPoints = BANDS[random.nextInt(BANDS.length)];
            // now and then under the rule older builds journaled, so that a snapshot must keep each band's rule
            c.priceBandRule = random.nextInt(4) == 0 ? MarketBandRule.FAR_EDGE_ONLY : MarketBandRule.CURRENT;
        } else {
            RandomCommands.fill(random, c, symbols, lastOrderId);
            if (c.type == CommandType.PLACE && random.nextInt(3) == 0) {
                c.selfTradePrevention = STP_MODES[1 + random.nextInt(STP_MODES.length - 1)];
            }
        }
    }

    /** Resets the command but its sequence and timestamp. */
    private static void clear(final OrderCommand c) {
        final long sequence = c.sequence;
        final long timestamp = c.timestampMicros;
        c.reset();
        c.sequence = sequence;
        c.timestampMicros = timestamp;
    }
}
