package io.orderentry.bench.engine;

import io.orderentry.engine.CommandResult;
import io.orderentry.engine.EngineConfig;
import io.orderentry.engine.EventSink;
import io.orderentry.engine.Matcher;
import io.orderentry.engine.OrderStatus;
import io.orderentry.engine.OrderType;
import io.orderentry.engine.RejectReason;
import io.orderentry.engine.Side;
import io.orderentry.engine.TimeInForce;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * A pre-generated command stream for the matcher benchmarks, held in primitive arrays so that
 * replaying it allocates nothing. Mix: ~50% GTC limits near the touch (some crossing), ~10% IOC
 * limits or MARKET orders, ~40% cancels, one instrument, 1,000 accounts, a unique clientOrderId on
 * every order; the book is kept around {@code targetDepth} resting orders.
 *
 * <p>The stream is a closed cycle: it starts from an empty book and ends by cancelling whatever
 * still rests, and cancels name their target relative to the first order id of the cycle. Replayed
 * again and again by a {@link CommandPlayer} (with a dedup window smaller than the orders of one
 * cycle, as {@link EngineConfig#DEFAULTS} is for the default length) every cycle behaves exactly like
 * the first.
 */
final class BenchmarkCommands {

    /** The default length: more orders per cycle than the default dedup window of 1,000,000. */
    static final int DEFAULT_LENGTH = 1 << 21;
    static final int DEFAULT_DEPTH = 1_000;
    static final int SYMBOL = 0;

    private static final long MID = 1_000_000;
    private static final long UNKNOWN = 1L << 40;
    private static final Side[] SIDES = Side.values();
    private static final OrderType[] TYPES = OrderType.values();
    private static final TimeInForce[] TIFS = TimeInForce.values();

    private final byte[] side;
    private final byte[] type;
    private final byte[] timeInForce;
    private final long[] price;
    private final long[] quantity;
    private final long[] cancelTarget;
    /** The accounts the stream's orders come from, {@code acct-0} to {@code acct-999}. */
    static final int ACCOUNTS = 1_000;
    /**
     * Their names, one instance each, as the service's matcher stage hands the engine one instance per account
     * ({@code AccountNames}): what funding a benchmark's accounts must use too.
     */
    static final String[] ACCOUNT_NAMES = new String[ACCOUNTS];

    static {
        for (int a = 0; a < ACCOUNTS; a++) {
            ACCOUNT_NAMES[a] = "acct-" + a;
        }
    }

    private final String[] accountId;
    private final String[] clientOrderId;
    private int length;
    private int places;

    private BenchmarkCommands(final int capacity) {
        side = new byte[capacity];
        type = new byte[capacity];
        timeInForce = new byte[capacity];
        price = new long[capacity];
        quantity = new long[capacity];
        cancelTarget = new long[capacity];
        accountId = new String[capacity];
        clientOrderId = new String[capacity];
    }

    /** @return the number of commands in one cycle */
    int length() {
        return length;
    }

    /** @return the number of place commands (order ids consumed) in one cycle */
    int places() {
        return places;
    }

    /**
     * Executes command {@code i} of the cycle.
     *
     * @param firstOrderId the id the first order of this cycle received, minus one
     */
    void execute(final Matcher matcher, final int i, final long firstOrderId, final long timestampMicros) {
        final long target = cancelTarget[i];
        if (target != 0) {
            matcher.cancel(timestampMicros, firstOrderId + target);
        } else {
            matcher.place(timestampMicros, accountId[i], clientOrderId[i], SYMBOL, SIDES[side[i]], TYPES[type[i]],
                    TIFS[timeInForce[i]], false, price[i], quantity[i]);
        }
    }

    /**
     * Generates a cycle by running a real matcher and choosing cancel targets among the orders that
     * actually rest, so that the depth hovers around {@code targetDepth}.
     */
    static BenchmarkCommands generate(final long seed, final int length, final int targetDepth) {
        final Random random = new Random(seed);
        final Tracker tracker = new Tracker();
        final Matcher matcher = new Matcher(1, EngineConfig.DEFAULTS, tracker);
        final BenchmarkCommands c = new BenchmarkCommands(length);
        final String[] accounts = ACCOUNT_NAMES;
        final int drainStart = length - targetDepth * 2;
        while (c.length < length) {
            final int i = c.length;
            final int roll = random.nextInt(100);
            if (i >= drainStart || roll >= 60) {
                if (i >= drainStart && tracker.resting.isEmpty()) {
                    c.cancelTarget[i] = UNKNOWN;
                } else {
                    final boolean hit = i >= drainStart || tracker.resting.size() > targetDepth || random.nextInt(10) < 3;
                    c.cancelTarget[i] = hit && !tracker.resting.isEmpty()
                            ? tracker.resting.get(random.nextInt(tracker.resting.size()))
                            : random.nextInt(4) == 0 ? UNKNOWN : 1 + random.nextInt(Math.max(1, c.places));
                }
                c.length++;
                matcher.cancel(i, c.cancelTarget[i]);
                continue;
            }
            final Side s = random.nextBoolean() ? Side.BUY : Side.SELL;
            final long away = s == Side.BUY ? -1 : 1;
            if (roll < 50) {
                final long offset = random.nextInt(10) == 0 ? -random.nextInt(4) : 1 + (long) Math.abs(random.nextGaussian() * 12);
                c.set(i, s, OrderType.LIMIT, TimeInForce.GTC, MID + away * offset, 1 + random.nextInt(10));
            } else if (roll < 55) {
                c.set(i, s, OrderType.LIMIT, TimeInForce.IOC, MID - away * random.nextInt(5), 1 + random.nextInt(20));
            } else {
                c.set(i, s, OrderType.MARKET, TimeInForce.IOC, 0, 1 + random.nextInt(20));
            }
            c.accountId[i] = accounts[random.nextInt(accounts.length)];
            c.clientOrderId[i] = "c" + c.places;
            c.places++;
            c.length++;
            matcher.place(i, c.accountId[i], c.clientOrderId[i], SYMBOL, s, TYPES[c.type[i]], TIFS[c.timeInForce[i]],
                    false, c.price[i], c.quantity[i]);
        }
        if (matcher.restingOrderCount() != 0) {
            throw new IllegalStateException("cycle does not end empty: " + matcher.restingOrderCount());
        }
        return c;
    }

    private void set(final int i, final Side s, final OrderType t, final TimeInForce tif, final long p, final long q) {
        side[i] = (byte) s.ordinal();
        type[i] = (byte) t.ordinal();
        timeInForce[i] = (byte) tif.ordinal();
        price[i] = p;
        quantity[i] = q;
    }

    /** Follows which orders rest, so that the generator can aim its cancels. Generation only. */
    private static final class Tracker implements EventSink {
        final List<Long> resting = new ArrayList<>();
        final Map<Long, Integer> index = new HashMap<>();

        @Override
        public void orderAccepted(final long eventSequence, final long timestampMicros, final long orderId,
                                  final String accountId, final String clientOrderId, final int symbol,
                                  final Side side, final OrderType type, final TimeInForce timeInForce,
                                  final boolean postOnly, final long price, final long quantity) {
        }

        @Override
        public void trade(final long eventSequence, final long timestampMicros, final long tradeId, final int symbol,
                          final long price, final long quantity, final Side takerSide, final long takerOrderId,
                          final String takerAccountId, final long takerFilledQuantity, final long makerOrderId,
                          final String makerAccountId, final long makerFilledQuantity, final OrderStatus makerStatus) {
            if (makerStatus == OrderStatus.FILLED) {
                remove(makerOrderId);
            }
        }

        @Override
        public void orderAmended(final long eventSequence, final long timestampMicros, final long orderId,
                                 final String accountId, final int symbol, final Side side, final long price,
                                 final long quantity, final long filledQuantity, final long previousPrice,
                                 final long previousQuantity, final boolean keptPriority) {
            // the benchmark issues no amends
        }

        @Override
        public void orderUpdated(final long eventSequence, final long timestampMicros, final long orderId,
                                 final String accountId, final int symbol, final Side side, final long price,
                                 final long quantity, final long filledQuantity, final long remainingQuantity,
                                 final OrderStatus status, final RejectReason rejectReason) {
            if (status == OrderStatus.NEW || status == OrderStatus.PARTIALLY_FILLED) {
                index.put(orderId, resting.size());
                resting.add(orderId);
            } else if (status == OrderStatus.CANCELED) {
                remove(orderId);
            }
        }

        @Override
        public void commandCompleted(final CommandResult result, final long orderId) {
        }

        private void remove(final long orderId) {
            final int at = index.remove(orderId);
            final long last = resting.remove(resting.size() - 1);
            if (last != orderId) {
                resting.set(at, last);
                index.put(last, at);
            }
        }
    }
}
