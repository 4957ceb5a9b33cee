package io.orderentry.bench.snapshot;

import io.orderentry.engine.OrderType;
import io.orderentry.engine.Side;
import io.orderentry.engine.TimeInForce;
import io.orderentry.journal.JournalConfig;
import io.orderentry.journal.JournalReader;
import io.orderentry.journal.JournalSync;
import io.orderentry.journal.JournalWriter;
import io.orderentry.pipeline.CommandType;
import io.orderentry.pipeline.OrderCommand;
import java.nio.file.Path;
import java.util.Map;

/**
 * Writes a long history into a journal without waiting for it to happen: first {@code RESTING} GTC orders that
 * never cross (they stay in the books: buys below 45,000 and sells above 55,000 on BTCUSD and ETHUSD, 1,000
 * accounts), then, up to {@code TOTAL} records, a day's churn that leaves the books as they were: a GTC order
 * next to the touch and its cancel, and IOC orders that find nothing to trade and expire.
 *
 * <pre>java -cp ... io.orderentry.bench.snapshot.HistoryGenerator JOURNAL_DIR RESTING TOTAL</pre>
 */
public final class HistoryGenerator {

    private HistoryGenerator() {
    }

    public static void main(final String[] args) throws Exception {
        final Path journal = Path.of(args[0]);
        final long resting = Long.parseLong(args[1]);
        final long total = Long.parseLong(args[2]);
        final long started = System.nanoTime();
        final JournalConfig config = new JournalConfig(journal, JournalSync.NONE, JournalConfig.DEFAULT_SEGMENT_SIZE,
                JournalConfig.DEFAULT_WRITE_BUFFER);
        try (JournalWriter writer = JournalWriter.open(config, new String[] {"BTCUSD", "ETHUSD"},
                JournalReader.recover(journal, Map.of("BTCUSD", 0, "ETHUSD", 1), command -> { }))) {
            if (writer.lastSequence() != 0) {
                throw new IllegalStateException(journal + " already holds records");
            }
            final OrderCommand c = new OrderCommand();
            final long now = System.currentTimeMillis() * 1000 - total;
            long orderId = 0;
            for (long sequence = 1; sequence <= total; sequence++) {
                c.reset();
                c.sequence = sequence;
                c.timestampMicros = now + sequence;
                final long i = sequence - 1;
                if (i < resting) {
                    place(c, i, TimeInForce.GTC, (i / 2) % 2 == 0, 5000);
                    c.clientOrderId = "m-" + i;
                    orderId++;
                } else {
                    final long churn = i - resting;
                    switch ((int) (churn % 3)) {
                        case 0 -> {
                            place(c, churn, TimeInForce.GTC, churn % 2 == 0, 1);
                            orderId++;
                        }
                        case 1 -> {
                            c.type = CommandType.CANCEL;
                            c.orderId = orderId;
                        }
                        default -> {
                            place(c, churn, TimeInForce.IOC, churn % 2 == 0, 1);
                            c.clientOrderId = "ioc-" + churn;
                            orderId++;
                        }
                    }
                }
                if (!writer.append(c)) {
                    throw new IllegalStateException("journal write failed", writer.failure());
                }
            }
            writer.flush();
        }
        System.out.printf("HISTORY %,d records (%,d resting orders) in %s in %,d ms%n", total, resting, journal,
                (System.nanoTime() - started) / 1_000_000);
    }

    /** A LIMIT order that crosses nothing: buys at or below 45,000.00, sells at or above 55,000.00. */
    private static void place(final OrderCommand c, final long i, final TimeInForce timeInForce, final boolean buy,
                              final int levels) {
        c.type = CommandType.PLACE;
        c.accountId = "acct-" + (i % 1000);
        c.symbol = (int) (i % 2);
        c.side = buy ? Side.BUY : Side.SELL;
        c.orderType = OrderType.LIMIT;
        c.timeInForce = timeInForce;
        c.price = buy ? 4_500_000 - (i % levels) * 100L : 5_500_000 + (i % levels) * 100L;
        c.quantity = 1 + i % 100;
    }
}
