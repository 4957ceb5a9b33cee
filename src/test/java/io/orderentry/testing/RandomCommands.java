package io.orderentry.testing;

import io.orderentry.engine.OrderType;
import io.orderentry.engine.RejectReason;
import io.orderentry.engine.SelfTradePrevention;
import io.orderentry.engine.Side;
import io.orderentry.engine.TimeInForce;
import io.orderentry.journal.JournalWriter;
import io.orderentry.pipeline.CommandType;
import io.orderentry.pipeline.OrderCommand;
import java.util.Random;

/**
 * Random valid commands for the tests that follow the engine: 20% cancels of any id handed out so far, 6% amends
 * of any such id (a new quantity, a new price or both), 0.2% cancel-alls (each empties a good part of a book) (of an account, in one instrument or all, from
 * a client or a dead man's switch), 5% MARKET, the rest LIMIT (10% IOC, 5% FOK, GTC with some postOnly) on
 * overlapping price ranges around 1,000 ticks, so orders both rest and trade; a fifth of the orders with a self-trade
 * prevention mode; 20 accounts.
 */
public final class RandomCommands {

    private RandomCommands() {
    }

    /**
     * Appends commands {@code from..to} to a journal ({@link #fill}, a second apart) and flushes it.
     *
     * @throws IllegalStateException if the journal cannot take them
     */
    public static void journal(final JournalWriter writer, final Random random, final long from, final long to,
                               final int symbols) {
        final OrderCommand c = new OrderCommand();
        for (long sequence = from; sequence <= to; sequence++) {
            c.sequence = sequence;
            c.timestampMicros = 1_800_000_000_000_000L + sequence * 1_000_000L;
            fill(random, c, symbols, sequence - 1);
            if (!writer.append(c)) {
                throw new IllegalStateException("journal append failed", writer.failure());
            }
        }
        if (!writer.flush()) {
            throw new IllegalStateException("journal flush failed", writer.failure());
        }
    }

    /**
     * Fills {@code c} with the next command; sequence and timestamp are the caller's.
     *
     * @param lastOrderId the highest order id handed out so far (0: none, so no cancel)
     */
    public static void fill(final Random random, final OrderCommand c, final int symbols, final long lastOrderId) {
        final long sequence = c.sequence;
        final long timestamp = c.timestampMicros;
        c.reset();
        c.sequence = sequence;
        c.timestampMicros = timestamp;
        final int roll = random.nextInt(100);
        if (lastOrderId > 0 && roll < 20) {
            c.type = CommandType.CANCEL;
            c.orderId = 1 + (long) random.nextInt((int) Math.min(Integer.MAX_VALUE, lastOrderId));
            return;
        }
        if (lastOrderId > 0 && roll < 26) {
            c.type = CommandType.AMEND;
            c.orderId = 1 + (long) random.nextInt((int) Math.min(Integer.MAX_VALUE, lastOrderId));
            final int what = random.nextInt(3);
            c.quantity = what == 1 ? 0 : 1 + random.nextInt(25);
            c.price = what == 0 ? 0 : 700 + random.nextInt(660);
            return;
        }
        if (random.nextInt(1_000) < 2) {
            c.type = CommandType.CANCEL_ALL;
            c.accountId = "acct-" + random.nextInt(20);
            c.symbol = random.nextBoolean() ? -1 : random.nextInt(symbols);
            c.cancelAllCause = random.nextInt(4) == 0 ? RejectReason.CANCEL_ALL_AFTER : RejectReason.CANCEL_ALL;
            return;
        }
        c.type = CommandType.PLACE;
        c.selfTradePrevention = random.nextInt(5) == 0
                ? SelfTradePrevention.values()[1 + random.nextInt(3)] : SelfTradePrevention.NONE;
        c.accountId = "acct-" + random.nextInt(20);
        c.symbol = random.nextInt(symbols);
        c.side = random.nextBoolean() ? Side.BUY : Side.SELL;
        c.quantity = 1 + random.nextInt(20);
        final int kind = random.nextInt(100);
        if (kind < 5) {
            c.orderType = OrderType.MARKET;
            c.timeInForce = TimeInForce.IOC;
            return;
        }
        c.orderType = OrderType.LIMIT;
        c.price = c.side == Side.BUY ? 700 + random.nextInt(330) : 1_000 + random.nextInt(330) - 30;
        c.timeInForce = kind < 15 ? TimeInForce.IOC : kind < 20 ? TimeInForce.FOK : TimeInForce.GTC;
        c.postOnly = c.timeInForce == TimeInForce.GTC && kind < 25;
    }
}
