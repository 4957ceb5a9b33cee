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
 * <pre>java -cp ... io.orderentry.bench.snapshot.HistoryGenerator JOURNAL_DIR RESTING TOTAL [ACCOUNTS]</pre>
 *
 * With {@code ACCOUNTS} above 0 the history is one for {@code ORDERS_RISK=balances} with the default instruments:
 * it begins with a deposit of BTC, USD and ETH (assets 0, 1, 2) to each of {@code ACCOUNTS} accounts, far more than
 * their orders hold, and the orders spread over those accounts instead of 1,000.
 */
public final class HistoryGenerator {

    private HistoryGenerator() {
    }

    public static void main(final String[] args) throws Exception {
        final Path journal = Path.of(args[0]);
        final long resting = Long.parseLong(args[1]);
        final long total = Long.parseLong(args[2]);
        final int accounts = args.length > 3 ? Integer.parseInt(args[3]) : 0;
        final long fundings = 3L * accounts;
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
            for (long sequence = 1; sequence <= total + fundings; sequence++) {
                c.reset();
                c.sequence = sequence;
                c.timestampMicros = now + sequence;
                if (sequence <= fundings) {
                    c.type = CommandType.FUND;
                    c.accountId = "acct-" + (sequence - 1) / 3;
                    c.asset = (int) ((sequence - 1) % 3);
                    c.amount = c.asset == 1 ? 1_000_000_000_000L : 1_000_000_000L;   // 1M USD, 100k BTC, 1M ETH
                    c.reference = "dep-" + sequence;
                    if (!writer.append(c)) {
                        throw new IllegalStateException("journal write failed", writer.failure());
                    }
                    continue;
                }
                final long i = sequence - 1 - fundings;
                if (i < resting) {
                    place(c, i, TimeInForce.GTC, (i / 2) % 2 == 0, 5000, accounts);
                    c.clientOrderId = "m-" + i;
                    orderId++;
                } else {
                    final long churn = i - resting;
                    switch ((int) (churn % 3)) {
                        case 0 -> {
                            place(c, churn, TimeInForce.GTC, churn % 2 == 0, 1, accounts);
                            orderId++;
                        }
                        case 1 -> {
                            c.type = CommandType.CANCEL;
                            c.orderId = orderId;
                        }
                        default -> {
                            place(c, churn, TimeInForce.IOC, churn % 2 == 0, 1, accounts);
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
        System.out.printf("HISTORY %,d records (%,d resting orders, %,d fundings) in %s in %,d ms%n",
                total + fundings, resting, fundings, journal, (System.nanoTime() - started) / 1_000_000);
    }

    /** A LIMIT order that crosses nothing: buys at or below 45,000.00, sells at or above 55,000.00. */
    private static void place(final OrderCommand c, final long i, final TimeInForce timeInForce, final boolean buy,
                              final int levels, final int accounts) {
        c.type = CommandType.PLACE;
        c.accountId = "acct-" + (i % (accounts > 0 ? accounts : 1000));
        c.symbol = (int) (i % 2);
        c.side = buy ? Side.BUY : Side.SELL;
        c.orderType = OrderType.LIMIT;
        c.timeInForce = timeInForce;
        c.price = buy ? 4_500_000 - (i % levels) * 100L : 5_500_000 + (i % levels) * 100L;
        c.quantity = 1 + i % 100;
    }
}
