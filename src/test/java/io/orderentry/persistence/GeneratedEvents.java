package io.orderentry.persistence;

import io.orderentry.app.Instrument;
import io.orderentry.engine.CommandResult;
import io.orderentry.engine.EngineLimits;
import io.orderentry.engine.EventSink;
import io.orderentry.engine.Matcher;
import io.orderentry.engine.OrderStatus;
import io.orderentry.engine.OrderType;
import io.orderentry.engine.RejectReason;
import io.orderentry.engine.Side;
import io.orderentry.engine.TimeInForce;
import io.orderentry.pipeline.EngineEvent;
import io.orderentry.pipeline.EventType;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * Engine events exactly as the real {@link Matcher} emits them for a seeded random mix of limit, IOC,
 * FOK, post-only and market orders and cancels on two instruments, so that tests write realistic,
 * consistent sequences (every order accepted before it trades or changes).
 */
public final class GeneratedEvents implements EventSink {

    public static final List<Instrument> INSTRUMENTS = List.of(
            new Instrument(0, "BTCUSD", new BigDecimal("0.01"), new BigDecimal("0.0001"), 1_000_000_000L, 1_000_000_000L),
            new Instrument(1, "ETHUSD", new BigDecimal("0.5"), new BigDecimal("0.001"), 1_000_000_000L, 1_000_000_000L));

    private final List<EngineEvent> events = new ArrayList<>();
    private final Matcher matcher = new Matcher(INSTRUMENTS.size(), EngineLimits.DEFAULTS, this);
    private long commandSequence;

    private GeneratedEvents() {
    }

    /** @return exactly {@code count} events, the first with sequence 1 */
    public static List<EngineEvent> generate(final long seed, final int count) {
        final GeneratedEvents generated = new GeneratedEvents();
        final Random random = new Random(seed);
        long micros = 1_790_000_000_000_000L;
        while (generated.events.size() < count) {
            micros += 1 + random.nextInt(500);
            generated.command(random, micros);
        }
        return new ArrayList<>(generated.events.subList(0, count));
    }

    private void command(final Random random, final long micros) {
        commandSequence++;
        if (random.nextInt(100) < 12 && matcher.lastOrderId() > 0) {
            matcher.cancel(micros, 1 + random.nextInt((int) matcher.lastOrderId()));
            return;
        }
        final int symbol = random.nextInt(INSTRUMENTS.size());
        final Side side = random.nextBoolean() ? Side.BUY : Side.SELL;
        final long mid = symbol == 0 ? 5_000_000 : 6_000;
        final long price = side == Side.BUY ? mid - 10 + random.nextInt(14) : mid - 3 + random.nextInt(14);
        final long quantity = 1 + random.nextInt(40);
        final String account = "acct-" + random.nextInt(50);
        final String clientOrderId = random.nextInt(4) == 0 ? null : "c-" + commandSequence;
        final int kind = random.nextInt(100);
        if (kind < 5) {
            matcher.place(micros, account, clientOrderId, symbol, side, OrderType.MARKET, TimeInForce.IOC, false, 0,
                    quantity);
        } else if (kind < 10) {
            matcher.place(micros, account, clientOrderId, symbol, side, OrderType.LIMIT, TimeInForce.IOC, false, price,
                    quantity);
        } else if (kind < 13) {
            matcher.place(micros, account, clientOrderId, symbol, side, OrderType.LIMIT, TimeInForce.FOK, false, price,
                    quantity);
        } else {
            matcher.place(micros, account, clientOrderId, symbol, side, OrderType.LIMIT, TimeInForce.GTC,
                    kind < 20, price, quantity);
        }
    }

    private EngineEvent add(final EventType type, final long eventSequence, final long timestampMicros) {
        final EngineEvent event = new EngineEvent();
        event.reset();
        event.type = type;
        event.eventSequence = eventSequence;
        event.timestampMicros = timestampMicros;
        event.commandSequence = commandSequence;
        events.add(event);
        return event;
    }

    @Override
    public void orderAccepted(final long eventSequence, final long timestampMicros, final long orderId,
                              final String accountId, final String clientOrderId, final int symbol, final Side side,
                              final OrderType type, final TimeInForce timeInForce, final boolean postOnly,
                              final long price, final long quantity) {
        final EngineEvent e = add(EventType.ORDER_ACCEPTED, eventSequence, timestampMicros);
        e.orderId = orderId;
        e.accountId = accountId;
        e.clientOrderId = clientOrderId;
        e.symbol = symbol;
        e.side = side;
        e.orderType = type;
        e.timeInForce = timeInForce;
        e.postOnly = postOnly;
        e.price = price;
        e.quantity = quantity;
        e.status = OrderStatus.NEW;
        e.rejectReason = RejectReason.NONE;
    }

    @Override
    public void trade(final long eventSequence, final long timestampMicros, final long tradeId, final int symbol,
                      final long price, final long quantity, final Side takerSide, final long takerOrderId,
                      final String takerAccountId, final long takerFilledQuantity, final long makerOrderId,
                      final String makerAccountId, final long makerFilledQuantity, final OrderStatus makerStatus) {
        final EngineEvent e = add(EventType.TRADE, eventSequence, timestampMicros);
        e.tradeId = tradeId;
        e.symbol = symbol;
        e.price = price;
        e.quantity = quantity;
        e.takerSide = takerSide;
        e.takerOrderId = takerOrderId;
        e.takerAccountId = takerAccountId;
        e.takerFilledQuantity = takerFilledQuantity;
        e.makerOrderId = makerOrderId;
        e.makerAccountId = makerAccountId;
        e.makerFilledQuantity = makerFilledQuantity;
        e.makerStatus = makerStatus;
    }

    @Override
    public void orderAmended(final long eventSequence, final long timestampMicros, final long orderId,
                             final String accountId, final int symbol, final Side side, final long price,
                             final long quantity, final long filledQuantity, final long previousPrice,
                             final long previousQuantity, final boolean keptPriority) {
        final EngineEvent e = add(EventType.ORDER_AMENDED, eventSequence, timestampMicros);
        e.orderId = orderId;
        e.accountId = accountId;
        e.symbol = symbol;
        e.side = side;
        e.price = price;
        e.quantity = quantity;
        e.filledQuantity = filledQuantity;
        e.previousPrice = previousPrice;
        e.previousQuantity = previousQuantity;
        e.keptPriority = keptPriority;
    }

    @Override
    public void orderUpdated(final long eventSequence, final long timestampMicros, final long orderId,
                             final String accountId, final int symbol, final Side side, final long price,
                             final long quantity, final long filledQuantity, final long remainingQuantity,
                             final OrderStatus status, final RejectReason rejectReason) {
        final EngineEvent e = add(EventType.ORDER_UPDATED, eventSequence, timestampMicros);
        e.orderId = orderId;
        e.accountId = accountId;
        e.symbol = symbol;
        e.side = side;
        e.price = price;
        e.quantity = quantity;
        e.filledQuantity = filledQuantity;
        e.remainingQuantity = remainingQuantity;
        e.status = status;
        e.rejectReason = rejectReason;
    }

    @Override
    public void commandCompleted(final CommandResult result, final long orderId) {
        // not an engine event: nothing is persisted for it
    }
}
