package io.orderentry.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/**
 * Shared set-up of the contract tests: a fresh engine per test on two instruments, shorthand for
 * placing and cancelling, views of the recorded events, and the invariant check after every test.
 * Subclasses say which engine is under test.
 */
abstract class ContractTestSupport {

    static final int BTC = 0;
    static final int ETH = 1;
    static final int SYMBOLS = 2;
    static final EngineConfig ROOMY = new EngineConfig(1_000, 100, 100, 100);

    /** One trade as seen from the taker: at which price, how much, against which resting order. */
    record Fill(long price, long quantity, long makerOrderId) {
    }

    final RecordingEventSink events = new RecordingEventSink();
    EngineConfig limits;
    OrderEngine engine;
    private long clock;

    abstract OrderEngine newEngine(int symbolCount, EngineConfig limits, EventSink sink);

    @BeforeEach
    void startWithRoomyLimits() {
        start(ROOMY);
    }

    @AfterEach
    void invariantsHold() {
        engine.checkInvariants();
    }

    /** Replaces the engine with an empty one with these limits. */
    void start(final EngineConfig newLimits) {
        limits = newLimits;
        engine = newEngine(SYMBOLS, newLimits, events);
        events.clear();
    }

    /** Places any order; the recorded events are those of this command only. @return the last order id */
    long place(final String account, final String clientOrderId, final int symbol, final Side side, final OrderType type,
               final TimeInForce tif, final boolean postOnly, final long price, final long quantity) {
        events.clear();
        engine.place(++clock, account, clientOrderId, symbol, side, type, tif, postOnly, price, quantity);
        return engine.lastOrderId();
    }

    /** Places any order with a self-trade prevention mode. @return the last order id */
    long place(final String account, final String clientOrderId, final int symbol, final Side side, final OrderType type,
               final TimeInForce tif, final boolean postOnly, final SelfTradePrevention stp, final long price,
               final long quantity) {
        events.clear();
        engine.place(++clock, account, clientOrderId, symbol, side, type, tif, postOnly, stp, price, quantity);
        return engine.lastOrderId();
    }

    /** Amends; the recorded events are those of this command only. */
    void amend(final long orderId, final long newPrice, final long newQuantity) {
        events.clear();
        engine.amend(++clock, orderId, newPrice, newQuantity);
    }

    /** Cancels all of an account's orders (symbol -1: of every instrument); the events are this command's only. */
    void cancelAll(final String account, final int symbol, final RejectReason cause) {
        events.clear();
        engine.cancelAll(++clock, account, symbol, cause);
    }

    /** Places a GTC order of {@code account} on BTC through connection {@code session}. @return its id */
    long through(final long session, final String account, final Side side, final long price,
                         final long quantity) {
        events.clear();
        engine.place(++clock, account, null, BTC, side, OrderType.LIMIT, TimeInForce.GTC, false,
                SelfTradePrevention.NONE, price, quantity, session);
        return engine.lastOrderId();
    }

    void cancelOnDisconnect(final String account, final long session) {
        events.clear();
        engine.cancelOnDisconnect(++clock, account, session);
    }

    /** @return the timestamp the last command was given */
    long now() {
        return clock;
    }

    long limit(final String account, final Side side, final TimeInForce tif, final long price, final long quantity) {
        return place(account, null, BTC, side, OrderType.LIMIT, tif, false, price, quantity);
    }

    long buy(final long price, final long quantity) {
        return limit("alice", Side.BUY, TimeInForce.GTC, price, quantity);
    }

    long sell(final long price, final long quantity) {
        return limit("bob", Side.SELL, TimeInForce.GTC, price, quantity);
    }

    long market(final Side side, final long quantity) {
        return place("carol", null, BTC, side, OrderType.MARKET, TimeInForce.IOC, false, 0, quantity);
    }

    void cancel(final long orderId) {
        events.clear();
        engine.cancel(++clock, orderId);
    }

    /** Replaces the engine with an empty one made by this factory (for engines with other constructor arguments). */
    void start(final EngineConfig newLimits, final OrderEngine newEngine) {
        limits = newLimits;
        engine = newEngine;
        events.clear();
    }

    /** @return the trades of the last command, from the taker's point of view */
    List<Fill> fills() {
        return events.trades().stream().map(t -> new Fill(t.price(), t.quantity(), t.makerOrderId())).toList();
    }

    List<OrderEngine.Level> bids() {
        return engine.levels(BTC, Side.BUY);
    }

    List<OrderEngine.Level> asks() {
        return engine.levels(BTC, Side.SELL);
    }

    static OrderEngine.Level level(final long price, final long total, final int count) {
        return new OrderEngine.Level(price, total, count);
    }

    /** Asserts the final state of the order the last place command created, and that it completed as PLACED. */
    void assertOutcome(final OrderStatus status, final long filled, final long remaining) {
        final RecordedEvent.Updated update = events.update();
        assertEquals(List.of(status, filled, remaining), List.of(update.status(), update.filled(), update.remaining()),
                "status, filled, remaining");
        assertEquals(new RecordedEvent.Completed(CommandResult.PLACED, update.orderId()), events.completion());
    }

    void assertRejected(final RejectReason reason) {
        assertOutcome(OrderStatus.REJECTED, 0, 0);
        assertEquals(reason, events.update().rejectReason());
        assertEquals(List.of(), events.trades());
    }

    void assertCompletedOnly(final CommandResult result, final long orderId) {
        assertEquals(List.of(new RecordedEvent.Completed(result, orderId)), events.events());
    }
}
