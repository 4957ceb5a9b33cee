package io.orderentry.testing;

import io.orderentry.engine.MarketBandRule;
import io.orderentry.engine.EngineConfig;
import io.orderentry.engine.Matcher;
import io.orderentry.engine.OrderType;
import io.orderentry.engine.RejectReason;
import io.orderentry.engine.SelfTradePrevention;
import io.orderentry.engine.Side;
import io.orderentry.engine.TimeInForce;
import io.orderentry.pipeline.CommandType;
import io.orderentry.pipeline.EngineEvent;
import io.orderentry.pipeline.EventOutput;
import io.orderentry.pipeline.MatcherMetrics;
import io.orderentry.pipeline.MatcherStage;
import io.orderentry.pipeline.OrderCommand;
import java.util.ArrayList;
import java.util.List;

/**
 * A real {@link Matcher} behind the real {@link MatcherStage}, driven one command at a time, keeping every event the
 * output ring would carry as an object of its own: so that a consumer's test feeds it exactly what the service's
 * consumers get, for places, cancels and the order operations (amend, cancel-all, price band). Commands run as live
 * ones (not replayed): each has a request tag {@code "req-<journal sequence>"}, so that its COMMAND_COMPLETED carries a
 * request as a live one does. Single-threaded.
 */
public final class TestEngine implements EventOutput {

    private final List<EngineEvent> events = new ArrayList<>();
    private final MatcherStage stage;
    private final OrderCommand command = new OrderCommand();
    private EngineEvent current;
    private long next;
    private long journalSequence;
    private long micros = 1_790_000_000_000_000L;

    /** @param symbols instruments 0 .. symbols - 1, without price bands */
    public TestEngine(final int symbols, final EngineConfig limits) {
        this.stage = new MatcherStage(sink -> new Matcher(symbols, limits, sink), this, new MatcherMetrics());
    }

    /** @return every event so far, oldest first, COMMAND_COMPLETED included (the live list) */
    public List<EngineEvent> events() {
        return events;
    }

    /** @return the sequenced events so far (the engine events a persistence or market data consumer stores) */
    public List<EngineEvent> sequenced() {
        return events.stream().filter(e -> e.type.isSequenced()).toList();
    }

    /** @return the matcher, to read its books and ids */
    public Matcher matcher() {
        return stage.matcher();
    }

    /** @return the time the next command will carry, in microseconds since the epoch */
    public long nextMicros() {
        return micros + 7;
    }

    /** Rests (or trades) a LIMIT GTC order of instrument 0 without self-trade prevention; @return its id */
    public long limit(final String account, final Side side, final long price, final long quantity) {
        return place(account, 0, side, TimeInForce.GTC, false, SelfTradePrevention.NONE, price, quantity);
    }

    /** Places a LIMIT order without a clientOrderId; @return the id the engine gave it */
    public long place(final String account, final int symbol, final Side side, final TimeInForce timeInForce,
                      final boolean postOnly, final SelfTradePrevention stp, final long price, final long quantity) {
        start(CommandType.PLACE);
        command.accountId = account;
        command.symbol = symbol;
        command.side = side;
        command.orderType = OrderType.LIMIT;
        command.timeInForce = timeInForce;
        command.postOnly = postOnly;
        command.selfTradePrevention = stp;
        command.price = price;
        command.quantity = quantity;
        return run();
    }

    /** Rests (or trades) a LIMIT GTC order of instrument 0 with a clientOrderId; @return the last order id handed out */
    public long limitWithClientOrderId(final String account, final String clientOrderId, final Side side,
                                       final long price, final long quantity) {
        start(CommandType.PLACE);
        command.accountId = account;
        command.clientOrderId = clientOrderId;
        command.symbol = 0;
        command.side = side;
        command.orderType = OrderType.LIMIT;
        command.timeInForce = TimeInForce.GTC;
        command.selfTradePrevention = SelfTradePrevention.NONE;
        command.price = price;
        command.quantity = quantity;
        return run();
    }

    /** Places a MARKET order; @return its id */
    public long market(final String account, final int symbol, final Side side, final SelfTradePrevention stp,
                       final long quantity) {
        start(CommandType.PLACE);
        command.accountId = account;
        command.symbol = symbol;
        command.side = side;
        command.orderType = OrderType.MARKET;
        command.timeInForce = TimeInForce.IOC;
        command.selfTradePrevention = stp;
        command.quantity = quantity;
        return run();
    }

    public void cancel(final long orderId) {
        start(CommandType.CANCEL);
        command.orderId = orderId;
        run();
    }

    /** Amends an order: a new price and/or total quantity, 0 keeps either. */
    public void amend(final long orderId, final long price, final long quantity) {
        start(CommandType.AMEND);
        command.orderId = orderId;
        command.price = price;
        command.quantity = quantity;
        run();
    }

    /** Cancels every resting order of an account, of one instrument or ({@code symbol} -1) of all. */
    public void cancelAll(final String account, final int symbol, final RejectReason cause) {
        start(CommandType.CANCEL_ALL);
        command.accountId = account;
        command.symbol = symbol;
        command.cancelAllCause = cause;
        run();
    }

    public void setPriceBand(final int symbol, final int basisPoints) {
        start(CommandType.SET_PRICE_BAND);
        command.symbol = symbol;
        command.priceBandBasisPoints = basisPoints;
        command.priceBandRule = MarketBandRule.CURRENT;
        run();
    }

    private void start(final CommandType type) {
        command.reset();
        command.type = type;
        command.sequence = ++journalSequence;
        command.timestampMicros = micros += 7;
        command.requestId = journalSequence;
        command.replyTo = 0;
        command.requestTag = "req-" + journalSequence;
    }

    /** @return the last order id handed out */
    private long run() {
        stage.onEvent(command, command.sequence, true);
        return stage.matcher().lastOrderId();
    }

    @Override
    public long next() {
        current = new EngineEvent();
        return ++next;
    }

    @Override
    public EngineEvent get(final long sequence) {
        return current;
    }

    @Override
    public void publish(final long sequence) {
        events.add(current);
    }
}
