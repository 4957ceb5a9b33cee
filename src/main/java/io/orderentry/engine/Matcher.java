package io.orderentry.engine;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.HashMap;
import java.util.Map;

/**
 * The matching engine: one price-time priority book per instrument index, the order and trade ids,
 * and the engine's event sequence. A deterministic state machine: it reads no clock, randomness or
 * I/O, so the same commands in the same order always give the same ids and events.
 *
 * <h2>Commands and what they emit</h2>
 * <ul>
 *   <li>{@link #place}: {@code orderAccepted}; then one {@code trade} per resting order hit, in the
 *       order matched; then {@code orderUpdated} with the incoming order's final state of this
 *       command; then {@code commandCompleted(PLACED, orderId)}. A duplicate (see below) emits only
 *       {@code commandCompleted}.</li>
 *   <li>{@link #cancel}: for a resting order, {@code orderUpdated(CANCELED)} and
 *       {@code commandCompleted(CANCELED)}; for an id already assigned but no longer resting, only
 *       {@code commandCompleted(ORDER_NOT_OPEN)}; for any other id, only
 *       {@code commandCompleted(ORDER_NOT_FOUND)}.</li>
 * </ul>
 * Order ids, trade ids and event sequences each count 1, 2, 3, ... without gaps. Every placed order
 * takes an order id, including those that end REJECTED or EXPIRED; duplicates take none.
 *
 * <h2>Matching</h2>
 * An incoming order trades with the best opposite level first and, within a level, with the oldest
 * order first, at the resting order's price, sweeping as many levels as it needs: a BUY trades with
 * asks priced at or below its limit, a SELL with bids at or above it, a MARKET order with any price.
 * No separate update is emitted for a resting order that traded: its {@code trade} event carries its
 * cumulative filled quantity and status. Orders of one account may trade with each other (there is
 * no self-trade prevention). Then:
 * <ul>
 *   <li>GTC: the remainder rests; status NEW, PARTIALLY_FILLED or FILLED;</li>
 *   <li>IOC (LIMIT or MARKET): the remainder expires; status FILLED or EXPIRED;</li>
 *   <li>FOK: trades only if its whole quantity is available within its limit, checked before
 *       anything trades; otherwise nothing trades and it is EXPIRED;</li>
 *   <li>postOnly: if it would trade on arrival it is REJECTED with POST_ONLY_WOULD_CROSS and nothing
 *       trades.</li>
 * </ul>
 *
 * <h2>Limits</h2>
 * The {@link EngineLimits} bound what rests, so only a GTC order can meet one, and only if it cannot
 * be filled completely on arrival (it would rest). Such an order is REJECTED, with nothing traded,
 * when on arrival (before anything trades), checked in this order:
 * <ol>
 *   <li>its account has {@code maxOpenOrdersPerAccount} open orders: TOO_MANY_OPEN_ORDERS;</li>
 *   <li>its side of the book has {@code maxPriceLevelsPerSide} levels and none at its price:
 *       TOO_MANY_PRICE_LEVELS;</li>
 *   <li>the engine holds {@code maxRestingOrders} resting orders: BOOK_CAPACITY_REACHED.</li>
 * </ol>
 * The postOnly check comes first. A GTC order that can fill completely on arrival is never rejected
 * by a limit, and IOC, FOK and MARKET orders never are. Matching only removes resting orders (from
 * the opposite side), so an order admitted on arrival can always rest and no limit is ever exceeded.
 * The decision uses the state on arrival even where the order's own trades would free capacity.
 *
 * <h2>Idempotency</h2>
 * The (accountId, clientOrderId) pairs of the most recent {@code dedupWindow} placed orders that had
 * a clientOrderId are remembered, whatever became of those orders. A place command with a remembered
 * pair places nothing: {@code commandCompleted(DUPLICATE, originalId)} when symbol, side, type, time
 * in force, postOnly, price and quantity all equal the original's, else
 * {@code commandCompleted(DUPLICATE_MISMATCH, originalId)}.
 *
 * <h2>Threading and allocation</h2>
 * Not thread safe: every method is called only on the matcher thread. Once its pools and tables have
 * grown to the working set, matching allocates nothing per command.
 */
public final class Matcher {

    private static final int ORDER_CHUNK = 4096;
    private static final int LEVEL_CHUNK = 256;
    private static final int INITIAL_TABLE_CAPACITY = 1024;
    private static final int SNAPSHOT_VERSION = 1;

    private final EngineLimits limits;
    private final EventSink sink;
    private final OrderBook[] books;
    private final LongObjectMap<Order> restingOrders = new LongObjectMap<>(INITIAL_TABLE_CAPACITY);
    private final AccountOrderCounts openOrders = new AccountOrderCounts(INITIAL_TABLE_CAPACITY);
    private final DedupWindow dedup;
    private final ObjectPool<Order> orderPool;
    private final ObjectPool<PriceLevel> levelPool;
    private long lastOrderId;
    private long lastTradeId;
    private long lastEventSequence;

    /**
     * @param symbolCount number of instruments; books are indexed 0 .. symbolCount - 1
     * @param limits      the bounds on what rests and on the dedup window
     * @param sink        receives every event, synchronously, on the matcher thread
     */
    public Matcher(final int symbolCount, final EngineLimits limits, final EventSink sink) {
        if (symbolCount <= 0 || limits == null || sink == null) {
            throw new IllegalArgumentException("symbolCount must be > 0, limits and sink non-null");
        }
        this.limits = limits;
        this.sink = sink;
        this.books = new OrderBook[symbolCount];
        for (int symbol = 0; symbol < symbolCount; symbol++) {
            books[symbol] = new OrderBook(symbol, limits.maxPriceLevelsPerSide());
        }
        this.dedup = new DedupWindow(limits.dedupWindow());
        this.orderPool = new ObjectPool<>(Order::new, limits.maxRestingOrders(), ORDER_CHUNK);
        final long maxLevels = Math.min(limits.maxRestingOrders(), 2L * symbolCount * limits.maxPriceLevelsPerSide());
        this.levelPool = new ObjectPool<>(PriceLevel::new, (int) maxLevels, LEVEL_CHUNK);
    }

    /**
     * Places an order. The caller guarantees validity: symbol in [0, symbolCount), quantity &gt; 0,
     * LIMIT has price &gt; 0, MARKET has price 0 and time in force IOC, postOnly only with LIMIT GTC.
     * The caller also bounds quantities so that the sum of everything resting on one side of a book
     * fits in a {@code long}.
     *
     * @param clientOrderId the client's idempotency key, may be null
     * @throws IllegalArgumentException when the caller broke the guarantee (a bug)
     */
    public void place(final long timestampMicros, final String accountId, final String clientOrderId,
                      final int symbol, final Side side, final OrderType type, final TimeInForce timeInForce,
                      final boolean postOnly, final long price, final long quantity) {
        PlaceArguments.check(books.length, accountId, symbol, side, type, timeInForce, postOnly, price, quantity);
        final long orderId;
        if (clientOrderId == null) {
            orderId = ++lastOrderId;
        } else {
            final int hash = DedupWindow.hash(accountId, clientOrderId);
            final int entry = dedup.find(hash, accountId, clientOrderId);
            if (entry >= 0) {
                final boolean same = dedup.sameOrder(entry, symbol, side, type, timeInForce, postOnly, price, quantity);
                sink.commandCompleted(same ? CommandResult.DUPLICATE : CommandResult.DUPLICATE_MISMATCH,
                        dedup.orderId(entry));
                return;
            }
            orderId = ++lastOrderId;
            dedup.remember(hash, orderId, accountId, clientOrderId, symbol, side, type, timeInForce, postOnly, price,
                    quantity);
        }
        sink.orderAccepted(++lastEventSequence, timestampMicros, orderId, accountId, clientOrderId, symbol, side,
                type, timeInForce, postOnly, price, quantity);

        final OrderBook book = books[symbol];
        final BookSide own = book.side(side);
        final BookSide opposite = book.side(side.opposite());
        final long reach = type == OrderType.MARKET ? Long.MIN_VALUE : opposite.keyOf(price);
        RejectReason reject = RejectReason.NONE;
        if (postOnly && opposite.bestReaches(reach)) {
            reject = RejectReason.POST_ONLY_WOULD_CROSS;
        } else if (timeInForce == TimeInForce.GTC) {
            reject = restingLimit(accountId, own, price, opposite, reach, quantity);
        }

        long filled = 0;
        long resting = 0;
        final OrderStatus status;
        if (reject != RejectReason.NONE) {
            status = OrderStatus.REJECTED;
        } else if (timeInForce == TimeInForce.FOK && opposite.available(reach, quantity) < quantity) {
            status = OrderStatus.EXPIRED;
        } else {
            filled = match(timestampMicros, orderId, accountId, symbol, side, opposite, reach, quantity);
            if (filled == quantity) {
                status = OrderStatus.FILLED;
            } else if (timeInForce == TimeInForce.GTC) {
                resting = quantity - filled;
                rest(own, orderId, accountId, price, quantity, filled);
                status = filled == 0 ? OrderStatus.NEW : OrderStatus.PARTIALLY_FILLED;
            } else {
                status = OrderStatus.EXPIRED;
            }
        }
        sink.orderUpdated(++lastEventSequence, timestampMicros, orderId, accountId, symbol, side, price, quantity,
                filled, resting, status, reject);
        sink.commandCompleted(CommandResult.PLACED, orderId);
    }

    /** Cancels a resting order; see the class documentation for the outcomes. */
    public void cancel(final long timestampMicros, final long orderId) {
        final Order order = orderId > 0 ? restingOrders.get(orderId) : null;
        if (order == null) {
            final boolean known = orderId > 0 && orderId <= lastOrderId;
            sink.commandCompleted(known ? CommandResult.ORDER_NOT_OPEN : CommandResult.ORDER_NOT_FOUND, orderId);
            return;
        }
        final PriceLevel level = order.level;
        final BookSide side = level.side;
        final long price = level.price;
        final String accountId = order.accountId;
        final long quantity = order.quantity;
        final long filled = order.filled;
        removeResting(order);
        sink.orderUpdated(++lastEventSequence, timestampMicros, orderId, accountId, side.symbol(), side.side(), price,
                quantity, filled, 0, OrderStatus.CANCELED, RejectReason.NONE);
        sink.commandCompleted(CommandResult.CANCELED, orderId);
    }

    /** @return the id given to the most recent placed order, 0 before the first */
    public long lastOrderId() {
        return lastOrderId;
    }

    /** @return the id of the most recent trade, 0 before the first */
    public long lastTradeId() {
        return lastTradeId;
    }

    /** @return the sequence of the most recent engine event, 0 before the first */
    public long lastEventSequence() {
        return lastEventSequence;
    }

    /**
     * @return the ids of the orders whose clientOrderId the dedup window remembers, oldest first (for the order view,
     *         which keeps those orders for retries); call on the thread that owns the matcher
     */
    public long[] rememberedOrderIds() {
        return dedup.orderIdsOldestFirst();
    }

    /** @return how many orders rest in all books */
    public int restingOrderCount() {
        return restingOrders.size();
    }

    /**
     * Visits one side of a book best first, one call per price level. For tests, invariant checks and
     * snapshots; called on the matcher thread, never from an {@link EventSink} callback.
     */
    public void forEachLevel(final int symbol, final Side side, final LevelVisitor visitor) {
        books[symbol].side(side).forEachLevel(visitor);
    }

    /**
     * Writes the engine's complete state: the ids and the event sequence, every resting order in price-time
     * priority and the dedup window, oldest entry first. Called on the thread that owns the matcher, between
     * commands. Format, version 1: {@code int version, int symbols, long lastOrderId, long lastTradeId, long
     * lastEventSequence}; per symbol, bids then asks: {@code int levels}, per level worst first {@code long price,
     * int orders}, per order oldest first {@code long orderId, UTF accountId, long quantity, long filled}; then the
     * dedup window ({@link DedupWindow#writeSnapshot}).
     */
    public void writeSnapshot(final DataOutput out) throws IOException {
        out.writeInt(SNAPSHOT_VERSION);
        out.writeInt(books.length);
        out.writeLong(lastOrderId);
        out.writeLong(lastTradeId);
        out.writeLong(lastEventSequence);
        for (final OrderBook book : books) {
            for (final Side side : Side.values()) {
                final BookSide levels = book.side(side);
                final int count = levels.levelCount();
                out.writeInt(count);
                for (int i = count - 1; i >= 0; i--) {
                    final PriceLevel level = levels.levelFromBest(i);
                    out.writeLong(level.price);
                    out.writeInt(level.orderCount);
                    for (Order order = level.head; order != null; order = order.next) {
                        out.writeLong(order.orderId);
                        out.writeUTF(order.accountId);
                        out.writeLong(order.quantity);
                        out.writeLong(order.filled);
                    }
                }
            }
        }
        dedup.writeSnapshot(out);
    }

    /**
     * Restores a state written by {@link #writeSnapshot} into this matcher, which must be new (no command executed).
     * A snapshot of fewer instruments than this matcher has is fine: the new ones start empty. Emits no event.
     *
     * @throws IOException on a malformed or truncated snapshot, one of more instruments than configured, or one that
     *                     breaks this matcher's limits (they are checked against the journal's before this is called)
     */
    public void restoreSnapshot(final DataInput in) throws IOException {
        if (lastOrderId != 0 || lastEventSequence != 0 || restingOrders.size() != 0) {
            throw new IllegalStateException("restoreSnapshot needs a new matcher");
        }
        final int version = in.readInt();
        if (version != SNAPSHOT_VERSION) {
            throw new IOException("engine snapshot version " + version + " is not supported (expected "
                    + SNAPSHOT_VERSION + ")");
        }
        final int symbols = in.readInt();
        if (symbols < 0 || symbols > books.length) {
            throw new IOException("engine snapshot holds " + symbols + " instruments, " + books.length
                    + " are configured");
        }
        lastOrderId = nonNegative(in.readLong(), "lastOrderId");
        lastTradeId = nonNegative(in.readLong(), "lastTradeId");
        lastEventSequence = nonNegative(in.readLong(), "lastEventSequence");
        final Map<String, String> accounts = new HashMap<>();
        for (int symbol = 0; symbol < symbols; symbol++) {
            for (final Side side : Side.values()) {
                final BookSide own = books[symbol].side(side);
                final int levels = in.readInt();
                if (levels < 0 || levels > limits.maxPriceLevelsPerSide()) {
                    throw new IOException("engine snapshot: " + levels + " levels on a side of instrument " + symbol
                            + " (limit " + limits.maxPriceLevelsPerSide() + ")");
                }
                long previousKey = Long.MIN_VALUE;
                for (int l = 0; l < levels; l++) {
                    final long price = in.readLong();
                    final int orders = in.readInt();
                    if (price <= 0 || orders <= 0 || own.keyOf(price) <= previousKey) {
                        throw new IOException("engine snapshot: bad level " + price + " x " + orders + " order(s)");
                    }
                    previousKey = own.keyOf(price);
                    for (int o = 0; o < orders; o++) {
                        final long orderId = in.readLong();
                        final String accountId = accounts.computeIfAbsent(in.readUTF(), a -> a);
                        final long quantity = in.readLong();
                        final long filled = in.readLong();
                        if (orderId <= 0 || orderId > lastOrderId || filled < 0 || filled >= quantity
                                || restingOrders.get(orderId) != null) {
                            throw new IOException("engine snapshot: bad resting order " + orderId);
                        }
                        if (restingOrders.size() >= limits.maxRestingOrders()) {
                            throw new IOException("engine snapshot holds more resting orders than the limit "
                                    + limits.maxRestingOrders());
                        }
                        rest(own, orderId, accountId, price, quantity, filled);
                    }
                }
            }
        }
        dedup.restoreSnapshot(in);
    }

    private static long nonNegative(final long value, final String what) throws IOException {
        if (value < 0) {
            throw new IOException("engine snapshot: negative " + what + " " + value);
        }
        return value;
    }

    /** @return the book of an instrument, for invariant checks in tests */
    OrderBook book(final int symbol) {
        return books[symbol];
    }

    /** @return the account's open orders, for invariant checks in tests */
    int openOrders(final String accountId) {
        return openOrders.get(accountId);
    }

    /** @return how many accounts have open orders, for invariant checks in tests */
    int accountsWithOpenOrders() {
        return openOrders.accountCount();
    }

    /** @return the resting order with this id, or null; for invariant checks in tests */
    Order restingOrder(final long orderId) {
        return restingOrders.get(orderId);
    }

    /**
     * @return the limit a GTC order would break by resting, or NONE when it breaks none or will not
     *         rest because it can be filled completely on arrival
     */
    private RejectReason restingLimit(final String accountId, final BookSide own, final long price,
                                      final BookSide opposite, final long reach, final long quantity) {
        final RejectReason reason;
        if (openOrders.get(accountId) >= limits.maxOpenOrdersPerAccount()) {
            reason = RejectReason.TOO_MANY_OPEN_ORDERS;
        } else if (own.levelCount() >= limits.maxPriceLevelsPerSide() && own.find(price) == null) {
            reason = RejectReason.TOO_MANY_PRICE_LEVELS;
        } else if (restingOrders.size() >= limits.maxRestingOrders()) {
            reason = RejectReason.BOOK_CAPACITY_REACHED;
        } else {
            return RejectReason.NONE;
        }
        return opposite.available(reach, quantity) >= quantity ? RejectReason.NONE : reason;
    }

    /** Trades the incoming order against the opposite side; returns its filled quantity. */
    private long match(final long timestampMicros, final long orderId, final String accountId, final int symbol,
                       final Side side, final BookSide opposite, final long reach, final long quantity) {
        long filled = 0;
        while (filled < quantity && opposite.bestReaches(reach)) {
            final PriceLevel level = opposite.best();
            final Order maker = level.head;
            final long traded = Math.min(quantity - filled, maker.remaining());
            filled += traded;
            maker.filled += traded;
            level.totalQuantity -= traded;
            final boolean makerDone = maker.filled == maker.quantity;
            sink.trade(++lastEventSequence, timestampMicros, ++lastTradeId, symbol, level.price, traded, side, orderId,
                    accountId, filled, maker.orderId, maker.accountId, maker.filled,
                    makerDone ? OrderStatus.FILLED : OrderStatus.PARTIALLY_FILLED);
            if (makerDone) {
                removeResting(maker);
            }
        }
        return filled;
    }

    private void rest(final BookSide own, final long orderId, final String accountId, final long price,
                      final long quantity, final long filled) {
        PriceLevel level = own.find(price);
        if (level == null) {
            level = levelPool.acquire();
            level.init(own, price);
            own.insert(level);
        }
        final Order order = orderPool.acquire();
        order.init(orderId, accountId, quantity, filled);
        level.append(order);
        restingOrders.put(orderId, order);
        openOrders.increment(accountId);
    }

    private void removeResting(final Order order) {
        final PriceLevel level = order.level;
        level.remove(order);
        if (level.isEmpty()) {
            level.side.remove(level);
            level.clear();
            levelPool.release(level);
        }
        restingOrders.remove(order.orderId);
        openOrders.decrement(order.accountId);
        order.clear();
        orderPool.release(order);
    }
}
