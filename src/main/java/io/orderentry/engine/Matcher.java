package io.orderentry.engine;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;

/**
 * The matching engine: one price-time priority book per instrument index, the order and trade ids,
 * and the engine's event sequence. A deterministic state machine: it reads no clock, randomness or
 * I/O, so the same commands in the same order always give the same ids and events.
 *
 * <h2>Commands and what they emit</h2>
 * <ul>
 *   <li>{@link #place}: {@code orderAccepted}; then one {@code trade} per resting order hit, in the
 *       order matched, and one {@code orderUpdated(CANCELED)} for each resting order self-trade prevention
 *       canceled, where it met it; then {@code orderUpdated} with the incoming order's final state of this
 *       command; then {@code commandCompleted(PLACED, orderId)}. A duplicate (see below) emits only
 *       {@code commandCompleted}.</li>
 *   <li>{@link #cancel}: for a resting order, {@code orderUpdated(CANCELED)} and
 *       {@code commandCompleted(CANCELED)}; for an id already assigned but no longer resting, only
 *       {@code commandCompleted(ORDER_NOT_OPEN)}; for any other id, only
 *       {@code commandCompleted(ORDER_NOT_FOUND)}.</li>
 *   <li>{@link #amend}: see "Amend" below; {@code orderAmended}, any trades, {@code orderUpdated} and
 *       {@code commandCompleted(AMENDED)}, or only a {@code commandCompleted} that says why nothing changed.</li>
 *   <li>{@link #cancelAll}: one {@code orderUpdated(CANCELED)} per resting order of the account (of the
 *       instrument, if one is named), lowest id first, each with the cause as its reason
 *       ({@code CANCEL_ALL} or {@code CANCEL_ALL_AFTER}); then {@code commandCompleted(CANCELED_ALL, 0)}.</li>
 *   <li>{@link #cancelOnDisconnect}: as a cancel-all, of the account's resting orders placed through one stream
 *       connection, reason {@code CANCEL_ON_DISCONNECT}.</li>
 *   <li>{@link #setPriceBand}: only {@code commandCompleted(PRICE_BAND_SET, 0)}.</li>
 * </ul>
 * Order ids, trade ids and event sequences each count 1, 2, 3, ... without gaps. Every placed order
 * takes an order id, including those that end REJECTED or EXPIRED; duplicates take none.
 *
 * <h2>Matching</h2>
 * An incoming order trades with the best opposite level first and, within a level, with the oldest
 * order first, at the resting order's price, sweeping as many levels as it needs: a BUY trades with
 * asks priced at or below its limit, a SELL with bids at or above it, a MARKET order with any price.
 * No separate update is emitted for a resting order that traded: its {@code trade} event carries its
 * cumulative filled quantity and status. Orders of one account trade with each other only when the
 * incoming order's self-trade prevention is NONE (see below). Then:
 * <ul>
 *   <li>GTC: the remainder rests; status NEW, PARTIALLY_FILLED or FILLED;</li>
 *   <li>IOC (LIMIT or MARKET): the remainder expires; status FILLED or EXPIRED;</li>
 *   <li>FOK: trades only if its whole quantity is available within its limit, checked before
 *       anything trades; otherwise nothing trades and it is EXPIRED;</li>
 *   <li>postOnly: if it would trade on arrival it is REJECTED with POST_ONLY_WOULD_CROSS and nothing
 *       trades.</li>
 * </ul>
 *
 * <h2>Self-trade prevention</h2>
 * Decided by the incoming order's mode when the next maker it would trade with is of its own account: EXPIRE_MAKER
 * cancels that maker ({@code orderUpdated(CANCELED, SELF_TRADE_PREVENTED)}) and matching goes on; EXPIRE_TAKER stops
 * the incoming order, whose remainder then expires ({@code EXPIRED, SELF_TRADE_PREVENTED}, even GTC: it does not
 * rest) and leaves the maker alone; EXPIRE_BOTH does both. What an order "can fill on arrival" (FOK, and the limits
 * below) counts the makers it would really trade with: its own account's are skipped under EXPIRE_MAKER, and end the
 * count under the other two modes. A postOnly order is still rejected if it would cross any order, its own included.
 *
 * <h2>Price bands</h2>
 * An instrument may have a band of {@code b} basis points around a reference price, taken on arrival before anything
 * changes: its last trade price, else the mid of its best bid and ask, else none (and then no band). A LIMIT order
 * (of any time in force) priced further than {@code b} from it is REJECTED with PRICE_OUTSIDE_BAND and nothing trades;
 * this check comes before every other. A MARKET order trades only at prices within the band, on both edges: when
 * the best maker is beyond the near edge (a bid above the band for a SELL, an ask below it for a BUY, left there by
 * trades that moved the reference) it trades nothing and touches nothing, not even its own account's orders, and
 * otherwise it stops at the first maker beyond the far edge; its remainder expires, with reason PRICE_OUTSIDE_BAND
 * when liquidity beyond the band was left (else NONE). A LIMIT order's band is its own price: inside the band it
 * trades with every maker its price reaches at the maker's price, which may lie beyond the near edge (a better price
 * than its own; refusing it would leave the instrument with no order able to trade, since only a trade moves the
 * reference). The comparison is exact: with {@code r2} twice the reference, a price {@code p} is inside when
 * {@code |2p - r2| <= floor(r2 * b / 10000)}. Each band carries the {@link MarketBandRule} it was set with, so that
 * orders journaled by a build with an older rule replay under it.
 *
 * <h2>Amend</h2>
 * Of a resting order only (ORDER_NOT_OPEN, ORDER_NOT_FOUND as for cancel); a new price and/or a new total quantity
 * (0 keeps either). Refused with nothing changed, in this order: a quantity at or below what is filled
 * (QUANTITY_NOT_ABOVE_FILLED); a new price outside the band (PRICE_OUTSIDE_BAND); a new price that would open a level
 * beyond {@code maxPriceLevelsPerSide} (counting the order's old level as gone if it is alone there) for a remainder
 * that cannot fill on arrival (TOO_MANY_PRICE_LEVELS). Otherwise {@code orderAmended} with the new and previous terms;
 * then, with the same price and a quantity not larger, the order keeps its place; else it leaves its level and is
 * handled as an arriving GTC order with its own id, postOnly flag and self-trade prevention, its earlier fills kept
 * (a postOnly order that would cross is REJECTED and gone; trades report the cumulative fill; what remains rests at
 * the back of its level). Then {@code orderUpdated} with its final state.
 *
 * <h2>Limits</h2>
 * The {@link EngineConfig} bound what rests, so only a GTC order can meet one, and only if it cannot
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
 * <h2>Balances</h2>
 * With {@link RiskRules} (the service's {@code ORDERS_RISK=balances}) the matcher holds and settles each account's
 * balances through {@link Funds}, whose documentation says what is held and how a trade settles; without them (null)
 * nothing below happens. {@link #fund} adds or withdraws funds. A LIMIT order, or a MARKET SELL, that passed every check
 * above but whose account's available balance does not cover what it would hold is REJECTED with INSUFFICIENT_BALANCE
 * and nothing happens (a FOK order that would expire is EXPIRED without being held, so it needs no cover). Otherwise it
 * holds before it trades; each trade settles at once, after its {@code trade} event; what does not rest is released
 * before the final {@code orderUpdated}. A MARKET BUY holds nothing: each trade is limited to the lots the available
 * quote pays for at that maker's price, and when that stops it the remainder EXPIRES with INSUFFICIENT_BALANCE. A
 * canceled order (a cancel, cancel-all, the dead man's switch, cancel on disconnect, self-trade prevention) releases its
 * remainder after its {@code orderUpdated}. An amend that would hold more than it holds now (a new price or quantity)
 * needs the difference available, else it is refused with INSUFFICIENT_BALANCE (after the other refusals) and nothing
 * changes; otherwise the hold is adjusted right after {@code orderAmended}, and what then does not rest is released.
 *
 * <h2>Idempotency</h2>
 * The (accountId, clientOrderId) pairs of the most recent {@code dedupWindow} placed orders that had
 * a clientOrderId are remembered, whatever became of those orders (an amend changes nothing there). A place command
 * with a remembered pair places nothing: {@code commandCompleted(DUPLICATE, originalId)} when symbol, side, type, time
 * in force, postOnly, self-trade prevention, price and quantity all equal the original's (as placed), else
 * {@code commandCompleted(DUPLICATE_MISMATCH, originalId)}.
 *
 * <h2>Threading and allocation</h2>
 * Not thread safe: every method is called only on the matcher thread. Once its pools and tables have
 * grown to the working set, matching allocates nothing per command.
 *
 * <h2>Why this class is long</h2>
 * One job needs the length: executing the commands under the rules above, which this comment states (about 120 of
 * its lines). {@link #place}, {@link #amend}, {@link #cancelAll}, the limit checks and the matching loop share the
 * books, the resting-order index, the id and event counters and the self-trade outcome, and run for every command on
 * the hottest thread; split further, they would hand that state between objects on every command. The other jobs
 * are elsewhere: the snapshot format in {@link MatcherSnapshot}, the price bands in {@link PriceBands}, the
 * idempotency window in {@link DedupWindow}, each account's open orders in {@link AccountOrders}, argument checks in
 * {@link PlaceArguments}.
 */
public final class Matcher {

    private static final int ORDER_CHUNK = 4096;
    private static final int LEVEL_CHUNK = 256;
    private static final int INITIAL_TABLE_CAPACITY = 1024;

    // package-private for MatcherSnapshot, which writes and restores them
    final EngineConfig limits;
    private final EventSink sink;
    final OrderBook[] books;
    final PriceBands bands;
    final LongObjectMap<Order> restingOrders = new LongObjectMap<>(INITIAL_TABLE_CAPACITY);
    final AccountOrders accountOrders = new AccountOrders(INITIAL_TABLE_CAPACITY);
    final DedupWindow dedup;
    /** The balances, or null without {@link RiskRules}. */
    final Funds funds;
    private final ObjectPool<Order> orderPool;
    private final ObjectPool<PriceLevel> levelPool;
    long lastOrderId;
    long lastTradeId;
    long lastEventSequence;
    /** Set by {@link #match}: self-trade prevention stopped the incoming order. */
    private boolean selfTradeStopped;
    /** Set by {@link #match}: a MARKET BUY's available quote paid for no more. */
    private boolean fundsStopped;

    /**
     * An engine without price bands, with balances when the limits carry {@link EngineConfig#risk}.
     *
     * @param symbolCount number of instruments; books are indexed 0 .. symbolCount - 1
     * @param limits      the bounds on what rests and on the dedup window
     * @param sink        receives every event, synchronously, on the matcher thread
     */
    public Matcher(final int symbolCount, final EngineConfig limits, final EventSink sink) {
        this(symbolCount, limits, null, sink);
    }

    /**
     * @param symbolCount           number of instruments; books are indexed 0 .. symbolCount - 1
     * @param limits                the bounds on what rests and on the dedup window
     * @param priceBandBasisPoints  per instrument, its price band in basis points of the reference price (1000 is
     *                              10%), 0 for none; null for no bands at all
     * @param sink                  receives every event, synchronously, on the matcher thread
     */
    public Matcher(final int symbolCount, final EngineConfig limits, final int[] priceBandBasisPoints,
                   final EventSink sink) {
        this(symbolCount, limits, priceBandBasisPoints, limits == null ? null : limits.risk(), sink);
    }

    /**
     * @param symbolCount           number of instruments; books are indexed 0 .. symbolCount - 1
     * @param limits                the bounds on what rests and on the dedup window
     * @param priceBandBasisPoints  per instrument, its price band in basis points, 0 for none; null for no bands
     * @param risk                  the assets and fee rates to hold and settle balances by; null for none
     * @param sink                  receives every event, synchronously, on the matcher thread
     */
    public Matcher(final int symbolCount, final EngineConfig limits, final int[] priceBandBasisPoints,
                   final RiskRules risk, final EventSink sink) {
        if (risk != null && risk.symbolCount() != symbolCount) {
            throw new IllegalArgumentException("risk rules for " + risk.symbolCount() + " instruments, "
                    + symbolCount + " configured");
        }
        if (symbolCount <= 0 || limits == null || sink == null) {
            throw new IllegalArgumentException("symbolCount must be > 0, limits and sink non-null");
        }
        this.limits = limits;
        this.sink = sink;
        this.books = new OrderBook[symbolCount];
        for (int symbol = 0; symbol < symbolCount; symbol++) {
            books[symbol] = new OrderBook(symbol, limits.maxPriceLevelsPerSide());
        }
        this.bands = new PriceBands(books, priceBandBasisPoints);
        this.dedup = new DedupWindow(limits.dedupWindow());
        this.orderPool = new ObjectPool<>(Order::new, limits.maxRestingOrders(), ORDER_CHUNK);
        final long maxLevels = Math.min(limits.maxRestingOrders(), 2L * symbolCount * limits.maxPriceLevelsPerSide());
        this.levelPool = new ObjectPool<>(PriceLevel::new, (int) maxLevels, LEVEL_CHUNK);
        this.funds = risk == null ? null : new Funds(risk, this, sink, INITIAL_TABLE_CAPACITY);
    }

    /**
     * Creates every resting-order node and price level the limits allow, now, instead of a chunk at a time as the
     * books grow: what a service whose heap fits its limits does at start (see {@link ObjectPool#reserve}). Call
     * before the first command, on the thread that then owns the matcher (or before it starts).
     */
    public void reserveStorage() {
        orderPool.reserve();
        levelPool.reserve();
    }

    /**
     * Places an order without self-trade prevention; see
     * {@link #place(long, String, String, int, Side, OrderType, TimeInForce, boolean, SelfTradePrevention, long, long)}.
     */
    public void place(final long timestampMicros, final String accountId, final String clientOrderId,
                      final int symbol, final Side side, final OrderType type, final TimeInForce timeInForce,
                      final boolean postOnly, final long price, final long quantity) {
        place(timestampMicros, accountId, clientOrderId, symbol, side, type, timeInForce, postOnly,
                SelfTradePrevention.NONE, price, quantity);
    }

    /**
     * Places an order. The caller guarantees validity: symbol in [0, symbolCount), quantity &gt; 0,
     * LIMIT has price &gt; 0, MARKET has price 0 and time in force IOC, postOnly only with LIMIT GTC.
     * The caller also bounds quantities so that the sum of everything resting on one side of a book
     * fits in a {@code long}, and prices below 2<sup>60</sup> ticks.
     *
     * @param clientOrderId the client's idempotency key, may be null
     * @param stp           what to do when it would trade with an order of its own account
     * @throws IllegalArgumentException when the caller broke the guarantee (a bug)
     */
    public void place(final long timestampMicros, final String accountId, final String clientOrderId,
                      final int symbol, final Side side, final OrderType type, final TimeInForce timeInForce,
                      final boolean postOnly, final SelfTradePrevention stp, final long price, final long quantity) {
        place(timestampMicros, accountId, clientOrderId, symbol, side, type, timeInForce, postOnly, stp, price,
                quantity, 0);
    }

    /**
     * Places an order, as {@link #place(long, String, String, int, Side, OrderType, TimeInForce, boolean,
     * SelfTradePrevention, long, long)}, through a stream connection: {@code session}, when not 0, names the
     * connection, and {@link #cancelOnDisconnect} with it cancels what of the order still rests.
     */
    public void place(final long timestampMicros, final String accountId, final String clientOrderId,
                      final int symbol, final Side side, final OrderType type, final TimeInForce timeInForce,
                      final boolean postOnly, final SelfTradePrevention stp, final long price, final long quantity,
                      final long session) {
        PlaceArguments.check(books.length, accountId, symbol, side, type, timeInForce, postOnly, stp, price, quantity);
        final long orderId;
        if (clientOrderId == null) {
            orderId = ++lastOrderId;
        } else {
            final int hash = DedupWindow.hash(accountId, clientOrderId);
            final int entry = dedup.find(hash, accountId, clientOrderId);
            if (entry >= 0) {
                final boolean same = dedup.sameOrder(entry, symbol, side, type, timeInForce, postOnly, stp, price,
                        quantity);
                sink.commandCompleted(same ? CommandResult.DUPLICATE : CommandResult.DUPLICATE_MISMATCH,
                        dedup.orderId(entry));
                return;
            }
            orderId = ++lastOrderId;
            dedup.remember(hash, orderId, accountId, clientOrderId, symbol, side, type, timeInForce, postOnly, stp,
                    price, quantity);
        }
        sink.orderAccepted(++lastEventSequence, timestampMicros, orderId, accountId, clientOrderId, symbol, side,
                type, timeInForce, postOnly, price, quantity);

        final OrderBook book = books[symbol];
        final BookSide own = book.side(side);
        final BookSide opposite = book.side(side.opposite());
        final long reach = type == OrderType.MARKET ? bands.marketReach(symbol, opposite) : opposite.keyOf(price);
        RejectReason reason = RejectReason.NONE;
        if (type == OrderType.LIMIT && bands.outside(symbol, price)) {
            reason = RejectReason.PRICE_OUTSIDE_BAND;
        } else if (postOnly && opposite.bestReaches(reach)) {
            reason = RejectReason.POST_ONLY_WOULD_CROSS;
        } else if (timeInForce == TimeInForce.GTC) {
            reason = restingLimit(accountId, own, price, opposite, reach, quantity, stp);
        }
        final boolean holds = funds != null && (type == OrderType.LIMIT || side == Side.SELL);
        final int heldAsset = funds == null ? -1 : funds.heldAsset(symbol, side);
        final int row = funds == null ? -1 : funds.row(accountId);
        if (reason == RejectReason.NONE && holds
                && !funds.covers(row, heldAsset, funds.required(symbol, side, price, quantity))) {
            reason = RejectReason.INSUFFICIENT_BALANCE;
        }

        long filled = 0;
        long resting = 0;
        final OrderStatus status;
        if (reason != RejectReason.NONE) {
            status = OrderStatus.REJECTED;
        } else if (timeInForce == TimeInForce.FOK && fillable(opposite, reach, quantity, accountId, stp) < quantity) {
            status = OrderStatus.EXPIRED;
        } else {
            if (holds) {
                funds.hold(timestampMicros, row, orderId, heldAsset, funds.required(symbol, side, price, quantity));
            }
            filled = match(timestampMicros, orderId, accountId, row, symbol, side, opposite, reach, price, quantity, 0,
                    stp);
            if (holds && (selfTradeStopped || timeInForce != TimeInForce.GTC)) {
                funds.release(timestampMicros, row, orderId, symbol, side, price, quantity - filled);
            }
            if (filled == quantity) {
                status = OrderStatus.FILLED;
            } else if (selfTradeStopped) {
                status = OrderStatus.EXPIRED;
                reason = RejectReason.SELF_TRADE_PREVENTED;
            } else if (timeInForce == TimeInForce.GTC) {
                resting = quantity - filled;
                final Order order = rest(own, orderId, accountId, price, quantity, filled, postOnly, stp, session);
                order.balanceRow = row;
                accountOrders.add(order);
                status = filled == 0 ? OrderStatus.NEW : OrderStatus.PARTIALLY_FILLED;
            } else {
                status = OrderStatus.EXPIRED;
                if (fundsStopped) {
                    reason = RejectReason.INSUFFICIENT_BALANCE;
                } else if (type == OrderType.MARKET && opposite.best() != null) {
                    // only the band stops a MARKET order short of an empty side
                    reason = RejectReason.PRICE_OUTSIDE_BAND;
                }
            }
        }
        sink.orderUpdated(++lastEventSequence, timestampMicros, orderId, accountId, symbol, side, price, quantity,
                filled, resting, status, reason);
        sink.commandCompleted(CommandResult.PLACED, orderId);
    }

    /** Cancels a resting order; see the class documentation for the outcomes. */
    public void cancel(final long timestampMicros, final long orderId) {
        final Order order = orderId > 0 ? restingOrders.get(orderId) : null;
        if (order == null) {
            sink.commandCompleted(notResting(orderId), orderId);
            return;
        }
        cancelResting(timestampMicros, order, RejectReason.NONE);
        sink.commandCompleted(CommandResult.CANCELED, orderId);
    }

    /**
     * Amends a resting order's price and/or total quantity; see the class documentation for the rules.
     *
     * @param newPrice    the new price in ticks, or 0 to keep the price
     * @param newQuantity the new total quantity (filled plus remaining) in lots, or 0 to keep it
     * @throws IllegalArgumentException when both are 0 or either is negative (a bug in the caller)
     */
    public void amend(final long timestampMicros, final long orderId, final long newPrice, final long newQuantity) {
        if (newPrice < 0 || newQuantity < 0 || (newPrice == 0 && newQuantity == 0)
                || newPrice >= PlaceArguments.MAX_PRICE) {
            throw new IllegalArgumentException("amend needs a new price and/or quantity: " + newPrice + " "
                    + newQuantity);
        }
        final Order order = orderId > 0 ? restingOrders.get(orderId) : null;
        if (order == null) {
            sink.commandCompleted(notResting(orderId), orderId);
            return;
        }
        final PriceLevel level = order.level;
        final BookSide own = level.side;
        final int symbol = own.symbol();
        final Side side = own.side();
        final BookSide opposite = books[symbol].side(side.opposite());
        final long previousPrice = level.price;
        final long previousQuantity = order.quantity;
        final long price = newPrice == 0 ? previousPrice : newPrice;
        final long quantity = newQuantity == 0 ? previousQuantity : newQuantity;
        final long filledBefore = order.filled;
        final boolean repriced = price != previousPrice;
        final long reach = opposite.keyOf(price);
        CommandResult refusal;
        if (quantity <= filledBefore) {
            refusal = CommandResult.QUANTITY_NOT_ABOVE_FILLED;
        } else if (repriced && bands.outside(symbol, price)) {
            refusal = CommandResult.PRICE_OUTSIDE_BAND;
        } else if (repriced && own.find(price) == null
                && own.levelCount() - (level.orderCount == 1 ? 1 : 0) >= limits.maxPriceLevelsPerSide()
                && fillable(opposite, reach, quantity - filledBefore, order.accountId, order.stp)
                        < quantity - filledBefore) {
            refusal = CommandResult.TOO_MANY_PRICE_LEVELS;
        } else {
            refusal = null;
        }
        final String accountId = order.accountId;
        final int row = order.balanceRow;
        long holdChange = 0;
        if (refusal == null && funds != null) {
            holdChange = funds.required(symbol, side, price, quantity - filledBefore)
                    - funds.required(symbol, side, previousPrice, previousQuantity - filledBefore);
            if (holdChange > 0 && !funds.covers(order.balanceRow, funds.heldAsset(symbol, side), holdChange)) {
                refusal = CommandResult.INSUFFICIENT_BALANCE;
            }
        }
        if (refusal != null) {
            sink.commandCompleted(refusal, orderId);
            return;
        }
        final boolean keptPriority = !repriced && quantity <= previousQuantity;
        sink.orderAmended(++lastEventSequence, timestampMicros, orderId, accountId, symbol, side, price, quantity,
                filledBefore, previousPrice, previousQuantity, keptPriority);
        if (holdChange != 0) {
            funds.hold(timestampMicros, order.balanceRow, orderId, funds.heldAsset(symbol, side), holdChange);
        }
        final long filled;
        final long resting;
        final OrderStatus status;
        RejectReason reason = RejectReason.NONE;
        if (keptPriority) {
            level.totalQuantity -= previousQuantity - quantity;
            order.quantity = quantity;
            filled = filledBefore;
            resting = quantity - filled;
            status = filled == 0 ? OrderStatus.NEW : OrderStatus.PARTIALLY_FILLED;
        } else {
            leaveLevel(order);
            if (order.postOnly && opposite.bestReaches(reach)) {
                filled = filledBefore;
                resting = 0;
                status = OrderStatus.REJECTED;
                reason = RejectReason.POST_ONLY_WOULD_CROSS;
                forget(order);
                if (funds != null) {
                    funds.release(timestampMicros, row, orderId, symbol, side, price, quantity - filled);
                }
            } else {
                filled = match(timestampMicros, orderId, accountId, row, symbol, side, opposite, reach, price,
                        quantity, filledBefore, order.stp);
                if (funds != null && selfTradeStopped) {
                    funds.release(timestampMicros, row, orderId, symbol, side, price, quantity - filled);
                }
                if (filled == quantity) {
                    resting = 0;
                    status = OrderStatus.FILLED;
                    forget(order);
                } else if (selfTradeStopped) {
                    resting = 0;
                    status = OrderStatus.EXPIRED;
                    reason = RejectReason.SELF_TRADE_PREVENTED;
                    forget(order);
                } else {
                    order.quantity = quantity;
                    order.filled = filled;
                    joinLevel(own, order, price);
                    resting = quantity - filled;
                    status = filled == 0 ? OrderStatus.NEW : OrderStatus.PARTIALLY_FILLED;
                }
            }
        }
        sink.orderUpdated(++lastEventSequence, timestampMicros, orderId, accountId, symbol, side, price, quantity,
                filled, resting, status, reason);
        sink.commandCompleted(CommandResult.AMENDED, orderId);
    }

    /**
     * Cancels every resting order of an account, or of an account and one instrument, oldest (lowest id) first.
     *
     * @param symbol the instrument, or -1 for all of them
     * @param cause  {@link RejectReason#CANCEL_ALL} or {@link RejectReason#CANCEL_ALL_AFTER}: the reason each
     *               canceled order carries
     * @throws IllegalArgumentException on a null account, a symbol out of range or another cause (a bug in the caller)
     */
    public void cancelAll(final long timestampMicros, final String accountId, final int symbol,
                          final RejectReason cause) {
        if (accountId == null || symbol < -1 || symbol >= books.length
                || (cause != RejectReason.CANCEL_ALL && cause != RejectReason.CANCEL_ALL_AFTER)) {
            throw new IllegalArgumentException("cancelAll needs an account, a symbol or -1 and a cancel-all cause: "
                    + accountId + " " + symbol + " " + cause);
        }
        Order order = accountOrders.first(accountId);
        while (order != null) {
            final Order next = order.accountNext;
            if (symbol < 0 || order.level.side.symbol() == symbol) {
                cancelResting(timestampMicros, order, cause);
            }
            order = next;
        }
        sink.commandCompleted(CommandResult.CANCELED_ALL, 0);
    }

    /**
     * Cancels every resting order of an account that was placed through stream connection {@code session} (which
     * closed with cancel on disconnect), oldest (lowest id) first, each with the reason
     * {@link RejectReason#CANCEL_ON_DISCONNECT}; the account's other orders, and other accounts' orders placed through
     * a connection with the same number, stay. Then {@code commandCompleted(CANCELED_ALL, 0)}.
     *
     * @throws IllegalArgumentException on a null account or a session of 0 (a bug in the caller)
     */
    public void cancelOnDisconnect(final long timestampMicros, final String accountId, final long session) {
        if (accountId == null || session == 0) {
            throw new IllegalArgumentException("cancelOnDisconnect needs an account and a session: " + accountId + " "
                    + session);
        }
        Order order = accountOrders.first(accountId);
        while (order != null) {
            final Order next = order.accountNext;
            if (order.session == session) {
                cancelResting(timestampMicros, order, RejectReason.CANCEL_ON_DISCONNECT);
            }
            order = next;
        }
        sink.commandCompleted(CommandResult.CANCELED_ALL, 0);
    }

    /**
     * Sets an instrument's price band from the next command on. A command like the others, so that the journal records
     * when a band changed and replay applies each band to exactly the orders it applied to.
     *
     * @param basisPoints the band in basis points of the reference price (1000 is 10%), 0 for none
     * @param rule        how the band bounds MARKET orders: {@link MarketBandRule#CURRENT}, or an older rule when
     *                    replaying what an older build journaled
     * @throws IllegalArgumentException on a symbol out of range, a band outside [0, 10000) or a null rule (a bug in
     *                                  the caller)
     */
    public void setPriceBand(final long timestampMicros, final int symbol, final int basisPoints,
                             final MarketBandRule rule) {
        if (symbol < 0 || symbol >= books.length) {
            throw new IllegalArgumentException("price band " + basisPoints + " bp for instrument " + symbol);
        }
        bands.set(symbol, basisPoints, rule);
        sink.commandCompleted(CommandResult.PRICE_BAND_SET, 0);
    }

    /** Sets a band under this build's rule; see {@link #setPriceBand(long, int, int, MarketBandRule)}. */
    public void setPriceBand(final long timestampMicros, final int symbol, final int basisPoints) {
        setPriceBand(timestampMicros, symbol, basisPoints, MarketBandRule.CURRENT);
    }

    /**
     * Adds funds to an account's balance of an asset, or withdraws them (a negative amount); see {@link Funds#fund} for
     * the outcomes, reported by {@link EventSink#fundingCompleted}.
     *
     * @param reference the funding's idempotency key
     * @throws IllegalArgumentException without balances, on a null account or reference, an asset out of range or an
     *                                  amount of 0 or beyond {@link RiskRules#MAX_SUPPLY} (a bug in the caller)
     */
    public void fund(final long timestampMicros, final String accountId, final int asset, final long amount,
                     final String reference) {
        if (funds == null || accountId == null || reference == null || asset < 0
                || asset >= funds.rules.assetCount() || amount == 0 || Math.abs(amount) > RiskRules.MAX_SUPPLY) {
            throw new IllegalArgumentException("fund needs balances, an account, an asset, an amount and a reference: "
                    + accountId + " " + asset + " " + amount + " " + reference);
        }
        funds.fund(timestampMicros, accountId, asset, amount, reference);
    }

    /**
     * Sets an instrument's fee rates from the next command on: a command like {@link #setPriceBand}, so that the journal
     * records when the rates changed and replay settles each trade at the rates it was settled at.
     *
     * @param makerFeeRate in millionths of what the maker receives
     * @param takerFeeRate in millionths of what the taker receives
     * @throws IllegalArgumentException without balances, on a symbol out of range or a rate outside
     *                                  [0, {@link RiskRules#MAX_FEE_RATE}] (a bug in the caller)
     */
    public void setFees(final long timestampMicros, final int symbol, final int makerFeeRate, final int takerFeeRate) {
        if (funds == null || symbol < 0 || symbol >= books.length) {
            throw new IllegalArgumentException("fees need balances and an instrument: " + symbol);
        }
        funds.rules = funds.rules.withFees(symbol, makerFeeRate, takerFeeRate);
        sink.commandCompleted(CommandResult.FEES_SET, 0);
    }

    /** @return the rules balances are held and settled by (with the fee rates in force), null without balances */
    public RiskRules riskRules() {
        return funds == null ? null : funds.rules;
    }

    /** @return the account's available balance of the asset in its units, 0 without balances or for an unknown one */
    public long available(final String accountId, final int asset) {
        return funds == null ? 0 : funds.available(accountId, asset);
    }

    /** @return what the account's open orders hold of the asset, 0 without balances */
    public long held(final String accountId, final int asset) {
        return funds == null ? 0 : funds.held(accountId, asset);
    }

    /** Receives one account's balance of one asset; see {@link #forEachBalance}. */
    @FunctionalInterface
    public interface BalanceVisitor {
        void balance(String accountId, int asset, long available, long held);
    }

    /**
     * Visits every balance the engine holds, accounts in the order they got balances, assets in index order (those
     * never held included, as zeros). Nothing without balances. On the thread that owns the matcher.
     */
    public void forEachBalance(final BalanceVisitor visitor) {
        if (funds == null) {
            return;
        }
        final BalanceTable table = funds.table;
        for (int row = 0; row < table.rowCount(); row++) {
            for (int asset = 0; asset < funds.rules.assetCount(); asset++) {
                final int cell = table.cell(row, asset);
                visitor.balance(table.account(row), asset, table.available[cell], table.held[cell]);
            }
        }
    }

    /** @return everything funded of the asset minus everything withdrawn, 0 without balances */
    public long supply(final int asset) {
        return funds == null ? 0 : funds.supply[asset];
    }

    /** @return an instrument's price band in basis points, 0 for none */
    public int priceBand(final int symbol) {
        return bands.basisPoints(symbol);
    }

    /** @return the rule by which an instrument's band bounds MARKET orders */
    public MarketBandRule priceBandRule(final int symbol) {
        return bands.rule(symbol);
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

    /** @return the price of the instrument's most recent trade in ticks, 0 before its first */
    public long lastTradePrice(final int symbol) {
        return bands.lastTradePrice(symbol);
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
     * Writes the engine's complete state, in the format {@link MatcherSnapshot#write} describes. Called on the thread
     * that owns the matcher, between commands.
     */
    public void writeSnapshot(final DataOutput out) throws IOException {
        MatcherSnapshot.write(this, out);
    }

    /**
     * Restores a state written by {@link #writeSnapshot} (of this version or an older one; see
     * {@link MatcherSnapshot#restore}) into this matcher, which must be new (no command executed). Emits no event.
     *
     * @throws IOException on a malformed or truncated snapshot, one of more instruments than configured, or one that
     *                     breaks this matcher's limits (they are checked against the journal's before this is called)
     */
    public void restoreSnapshot(final DataInput in) throws IOException {
        MatcherSnapshot.restore(this, in);
    }

    /** @return the book of an instrument, for invariant checks in tests */
    OrderBook book(final int symbol) {
        return books[symbol];
    }

    /** @return the account's open orders, for invariant checks in tests */
    int openOrders(final String accountId) {
        return accountOrders.count(accountId);
    }

    /** @return the account's oldest open order (then {@link Order#accountNext}), for invariant checks in tests */
    Order firstOpenOrder(final String accountId) {
        return accountOrders.first(accountId);
    }

    /** @return how many accounts have open orders, for invariant checks in tests */
    int accountsWithOpenOrders() {
        return accountOrders.accountCount();
    }

    /** @return the resting order with this id, or null; for invariant checks in tests */
    Order restingOrder(final long orderId) {
        return restingOrders.get(orderId);
    }

    private CommandResult notResting(final long orderId) {
        return orderId > 0 && orderId <= lastOrderId ? CommandResult.ORDER_NOT_OPEN : CommandResult.ORDER_NOT_FOUND;
    }

    /**
     * @return the limit a GTC order would break by resting, or NONE when it breaks none or will not
     *         rest because it can be filled completely on arrival
     */
    private RejectReason restingLimit(final String accountId, final BookSide own, final long price,
                                      final BookSide opposite, final long reach, final long quantity,
                                      final SelfTradePrevention stp) {
        final RejectReason reason;
        if (accountOrders.count(accountId) >= limits.maxOpenOrdersPerAccount()) {
            reason = RejectReason.TOO_MANY_OPEN_ORDERS;
        } else if (own.levelCount() >= limits.maxPriceLevelsPerSide() && own.find(price) == null) {
            reason = RejectReason.TOO_MANY_PRICE_LEVELS;
        } else if (restingOrders.size() >= limits.maxRestingOrders()) {
            reason = RejectReason.BOOK_CAPACITY_REACHED;
        } else {
            return RejectReason.NONE;
        }
        return fillable(opposite, reach, quantity, accountId, stp) >= quantity ? RejectReason.NONE : reason;
    }

    /**
     * What an incoming order could fill on arrival, capped at (but possibly above) {@code wanted}: the quantity
     * within reach, less what self-trade prevention would keep it from: with EXPIRE_MAKER its own account's orders
     * are skipped, with EXPIRE_TAKER or EXPIRE_BOTH the count stops at the first of them. Reads only.
     */
    private static long fillable(final BookSide opposite, final long reach, final long wanted, final String accountId,
                                 final SelfTradePrevention stp) {
        if (stp == SelfTradePrevention.NONE) {
            return opposite.available(reach, wanted);
        }
        long sum = 0;
        for (int i = 0; i < opposite.levelCount() && sum < wanted; i++) {
            final PriceLevel level = opposite.levelFromBest(i);
            if (opposite.keyOf(level.price) < reach) {
                break;
            }
            for (Order maker = level.head; maker != null && sum < wanted; maker = maker.next) {
                if (maker.accountId == accountId || maker.accountId.equals(accountId)) {
                    if (stp != SelfTradePrevention.EXPIRE_MAKER) {
                        return sum;
                    }
                } else {
                    sum += maker.remaining();
                }
            }
        }
        return sum;
    }

    /**
     * Trades an incoming order (new, or amended and out of the book) against the opposite side, applying its
     * self-trade prevention; sets {@link #selfTradeStopped}.
     *
     * @param filled what the order had filled before this command
     * @return its filled quantity after this command
     */
    private long match(final long timestampMicros, final long orderId, final String accountId, final int row,
                       final int symbol, final Side side, final BookSide opposite, final long reach, final long price,
                       final long quantity, long filled, final SelfTradePrevention stp) {
        selfTradeStopped = false;
        fundsStopped = false;
        final boolean paysFromAvailable = funds != null && price == 0 && side == Side.BUY;
        while (filled < quantity && opposite.bestReaches(reach)) {
            final PriceLevel level = opposite.best();
            final Order maker = level.head;
            if (stp != SelfTradePrevention.NONE
                    && (maker.accountId == accountId || maker.accountId.equals(accountId))) {
                if (stp != SelfTradePrevention.EXPIRE_TAKER) {
                    cancelResting(timestampMicros, maker, RejectReason.SELF_TRADE_PREVENTED);
                }
                if (stp != SelfTradePrevention.EXPIRE_MAKER) {
                    selfTradeStopped = true;
                    break;
                }
                continue;
            }
            long traded = Math.min(quantity - filled, maker.remaining());
            if (paysFromAvailable) {
                traded = Math.min(traded, funds.affordableLots(row, symbol, level.price));
                if (traded == 0) {
                    fundsStopped = true;
                    break;
                }
            }
            filled += traded;
            maker.filled += traded;
            level.totalQuantity -= traded;
            bands.traded(symbol, level.price);
            final boolean makerDone = maker.filled == maker.quantity;
            sink.trade(++lastEventSequence, timestampMicros, ++lastTradeId, symbol, level.price, traded, side, orderId,
                    accountId, filled, maker.orderId, maker.accountId, maker.filled,
                    makerDone ? OrderStatus.FILLED : OrderStatus.PARTIALLY_FILLED);
            if (funds != null) {
                funds.settle(timestampMicros, lastTradeId, symbol, level.price, traded, side, row, orderId, price,
                        maker.balanceRow, maker.orderId);
            }
            if (makerDone) {
                removeResting(maker);
            }
        }
        return filled;
    }

    /** Removes a resting order and reports it CANCELED with this reason. */
    private void cancelResting(final long timestampMicros, final Order order, final RejectReason reason) {
        final BookSide side = order.level.side;
        final long price = order.level.price;
        final long orderId = order.orderId;
        final String accountId = order.accountId;
        final long quantity = order.quantity;
        final long filled = order.filled;
        final int row = order.balanceRow;
        removeResting(order);
        sink.orderUpdated(++lastEventSequence, timestampMicros, orderId, accountId, side.symbol(), side.side(), price,
                quantity, filled, 0, OrderStatus.CANCELED, reason);
        if (funds != null) {
            funds.release(timestampMicros, row, orderId, side.symbol(), side.side(), price, quantity - filled);
        }
    }

    /** Puts a new order node at the back of its price level (creating the level) and indexes it by id. */
    Order rest(final BookSide own, final long orderId, final String accountId, final long price,
               final long quantity, final long filled, final boolean postOnly, final SelfTradePrevention stp,
               final long session) {
        final Order order = orderPool.acquire();
        order.init(orderId, accountId, quantity, filled, postOnly, stp, session);
        joinLevel(own, order, price);
        restingOrders.put(orderId, order);
        return order;
    }

    private void joinLevel(final BookSide own, final Order order, final long price) {
        PriceLevel level = own.find(price);
        if (level == null) {
            level = levelPool.acquire();
            level.init(own, price);
            own.insert(level);
        }
        level.append(order);
    }

    /** Takes an order out of its price level (dropping the level if it empties); it stays indexed. */
    private void leaveLevel(final Order order) {
        final PriceLevel level = order.level;
        level.remove(order);
        order.level = null;
        order.prev = null;
        order.next = null;
        if (level.isEmpty()) {
            level.side.remove(level);
            level.clear();
            levelPool.release(level);
        }
    }

    /** Forgets an order that is out of its level: its id, its account's list, its node. */
    private void forget(final Order order) {
        restingOrders.remove(order.orderId);
        accountOrders.remove(order);
        order.clear();
        orderPool.release(order);
    }

    private void removeResting(final Order order) {
        leaveLevel(order);
        forget(order);
    }
}
