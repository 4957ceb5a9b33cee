package io.orderentry.persistence;

import io.orderentry.engine.CommandResult;
import io.orderentry.engine.EngineConfig;
import io.orderentry.engine.EventSink;
import io.orderentry.engine.Matcher;
import io.orderentry.engine.OrderStatus;
import io.orderentry.engine.OrderType;
import io.orderentry.engine.RejectReason;
import io.orderentry.engine.SelfTradePrevention;
import io.orderentry.engine.Side;
import io.orderentry.engine.TimeInForce;
import io.orderentry.instrument.Instrument;
import io.orderentry.pipeline.EngineEvent;
import io.orderentry.pipeline.EventType;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * Engine events exactly as the real {@link Matcher} emits them for a seeded random mix of limit, IOC,
 * FOK, post-only and market orders and cancels on two instruments, so that tests write realistic,
 * consistent sequences (every order accepted before it trades or changes). {@link #generateWithOperations} adds the
 * order operations: amends (ORDER_AMENDED, then trades and the amended order's final ORDER_UPDATED), cancel-alls
 * (ORDER_UPDATED CANCELED with CANCEL_ALL or CANCEL_ALL_AFTER), self-trade prevention (makers CANCELED and takers
 * EXPIRED with SELF_TRADE_PREVENTED) and a price band (REJECTED and EXPIRED with PRICE_OUTSIDE_BAND).
 */
public final class GeneratedEvents implements EventSink {

    public static final List<Instrument> INSTRUMENTS = List.of(
            new Instrument(0, "BTCUSD", new BigDecimal("0.01"), new BigDecimal("0.0001"), 1_000_000_000L, 1_000_000_000L),
            new Instrument(1, "ETHUSD", new BigDecimal("0.5"), new BigDecimal("0.001"), 1_000_000_000L, 1_000_000_000L));

    private static final SelfTradePrevention[] STP_MODES = SelfTradePrevention.values();
    /** ETHUSD's band in the mix with operations: 0.1% of about 6,000 ticks, so the wider prices fall outside. */
    private static final int ETH_BAND_BASIS_POINTS = 10;

    private final List<EngineEvent> events = new ArrayList<>();
    private final Matcher matcher = new Matcher(INSTRUMENTS.size(), EngineConfig.DEFAULTS, this);
    private final boolean operations;
    private long commandSequence;
    /** The self-trade prevention of the place command being executed, for its ORDER_ACCEPTED. */
    private SelfTradePrevention placing = SelfTradePrevention.NONE;
    /** Each order's instrument, by order id (index 0 unused). */
    private final List<Integer> symbols = new ArrayList<>(List.of(-1));

    private GeneratedEvents(final boolean operations) {
        this.operations = operations;
    }

    /** @return exactly {@code count} events, the first with sequence 1: places and cancels only */
    public static List<EngineEvent> generate(final long seed, final int count) {
        return generate(seed, count, false);
    }

    /**
     * @return exactly {@code count} events, the first with sequence 1, of places (a third with self-trade prevention,
     *         among 12 accounts so that they meet their own orders), cancels, amends of any order id handed out (some
     *         not open), cancel-alls of an account (of one instrument or all, from a client or a dead man's switch),
     *         under a price band on ETHUSD from the 20th command on
     */
    public static List<EngineEvent> generateWithOperations(final long seed, final int count) {
        return generate(seed, count, true);
    }

    private static List<EngineEvent> generate(final long seed, final int count, final boolean operations) {
        final GeneratedEvents generated = new GeneratedEvents(operations);
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
        if (operations && operation(random, micros)) {
            return;
        }
        if (random.nextInt(100) < 12 && matcher.lastOrderId() > 0) {
            matcher.cancel(micros, 1 + random.nextInt((int) matcher.lastOrderId()));
            return;
        }
        final int symbol = random.nextInt(INSTRUMENTS.size());
        final Side side = random.nextBoolean() ? Side.BUY : Side.SELL;
        final long price = price(random, symbol, side);
        final long quantity = 1 + random.nextInt(40);
        final String account = "acct-" + random.nextInt(operations ? 12 : 50);
        final String clientOrderId = random.nextInt(4) == 0 ? null : "c-" + commandSequence;
        final int kind = random.nextInt(100);
        placing = operations && random.nextInt(3) == 0 ? STP_MODES[1 + random.nextInt(STP_MODES.length - 1)]
                : SelfTradePrevention.NONE;
        if (kind < 5) {
            matcher.place(micros, account, clientOrderId, symbol, side, OrderType.MARKET, TimeInForce.IOC, false,
                    placing, 0, quantity);
        } else if (kind < 10) {
            matcher.place(micros, account, clientOrderId, symbol, side, OrderType.LIMIT, TimeInForce.IOC, false,
                    placing, price, quantity);
        } else if (kind < 13) {
            matcher.place(micros, account, clientOrderId, symbol, side, OrderType.LIMIT, TimeInForce.FOK, false,
                    placing, price, quantity);
        } else {
            matcher.place(micros, account, clientOrderId, symbol, side, OrderType.LIMIT, TimeInForce.GTC,
                    kind < 20, placing, price, quantity);
        }
    }

    private static long price(final Random random, final int symbol, final Side side) {
        final long mid = symbol == 0 ? 5_000_000 : 6_000;
        return side == Side.BUY ? mid - 10 + random.nextInt(14) : mid - 3 + random.nextInt(14);
    }

    /** @return true if it ran an order operation or set the band, false to leave the command to a place or cancel */
    private boolean operation(final Random random, final long micros) {
        if (commandSequence == 20) {
            matcher.setPriceBand(micros, 1, ETH_BAND_BASIS_POINTS);
            return true;
        }
        final int kind = random.nextInt(100);
        if (kind < 15 && matcher.lastOrderId() > 0) {
            final long orderId = 1 + random.nextInt((int) matcher.lastOrderId());
            final int own = orderId < symbols.size() ? symbols.get((int) orderId) : 0;
            final int symbol = random.nextInt(10) == 0 ? 1 - own : own;   // now and then the other's: a far price
            final int terms = random.nextInt(3);
            final long price = terms == 0 ? 0 : price(random, symbol, random.nextBoolean() ? Side.BUY : Side.SELL);
            final long quantity = terms == 1 ? 0 : 1 + random.nextInt(40);
            matcher.amend(micros, orderId, price, quantity);
            return true;
        }
        if (kind < 17) {
            matcher.cancelAll(micros, "acct-" + random.nextInt(12), random.nextInt(3) - 1,
                    random.nextBoolean() ? RejectReason.CANCEL_ALL : RejectReason.CANCEL_ALL_AFTER);
            return true;
        }
        return false;
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
        e.clientOrderId.set(clientOrderId);
        e.symbol = symbol;
        e.side = side;
        e.orderType = type;
        e.timeInForce = timeInForce;
        e.postOnly = postOnly;
        e.selfTradePrevention = placing;
        symbols.add(symbol);
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
