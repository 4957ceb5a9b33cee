package io.orderentry.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Runs the same generated command stream through the {@link Matcher} and the naive
 * {@link ReferenceMatcher} and requires identical events for every command (fills, statuses,
 * quantities, ids, sequences, results, amendments), identical books along the way, and identical final
 * books and counters. Also requires that the stream reached every outcome (every status, reject reason and
 * command result, every self-trade prevention outcome, every kind of amend and cancel-all, the price band
 * stopping orders), so a quiet generator cannot make the comparison vacuous. And it holds both engines to the band's
 * rules as the {@link BandOracle} computes them apart from either (a MARKET order trades only inside the band, a LIMIT
 * order never worse than its price, every taker best price first), so that a rule both engines get wrong alike is
 * still caught: the way a MARKET order traded beyond the band's near edge in both until issue 31.
 */
class MatcherDifferentialTest {

    /*
     * Three configurations of 100,000 commands each: tight limits with a 5% band on one instrument and none on
     * the other, so that every reject reason and result occurs often; a deep book (thousands of resting orders)
     * without bands (the constructors without them), where only the resting capacity ever binds; and a deep book
     * with a band on both instruments and a drifting mid, so that MARKET orders run into the band. Each also has a
     * third, thin instrument (a 10% band where there are bands) that only the generator's issue-31 scenario trades:
     * one order's trade moves its reference far and leaves orders beyond the band's near edge.
     */

    private static final int COMMANDS = 100_000;
    private static final int SYMBOLS = 3;
    private static final int BOOK_CHECK_INTERVAL = 1_000;

    /** Outcomes of self-trade prevention, named by {@link #collect}. */
    private static final Set<String> STP_OUTCOMES = Set.of(
            "self-trade with NONE",
            "STP EXPIRE_TAKER expired the GTC taker",
            "STP EXPIRE_TAKER expired the IOC taker",
            "STP EXPIRE_TAKER expired the MARKET taker",
            "STP EXPIRE_BOTH expired the GTC taker",
            "STP expired a taker after fills",
            "STP EXPIRE_MAKER canceled a maker",
            "STP EXPIRE_BOTH canceled a maker",
            "STP EXPIRE_MAKER continued with the next maker",
            "STP EXPIRE_MAKER taker rested after canceling a maker");

    private static final Set<String> AMEND_OUTCOMES = Set.of(
            "amend kept priority",
            "amend lost priority and rested NEW",
            "amend lost priority and rested PARTIALLY_FILLED",
            "amend traded and FILLED",
            "amend traded and PARTIALLY_FILLED",
            "amend REJECTED POST_ONLY_WOULD_CROSS",
            "amend EXPIRED SELF_TRADE_PREVENTED",
            "amend QUANTITY_NOT_ABOVE_FILLED",
            "amend ORDER_NOT_OPEN",
            "amend ORDER_NOT_FOUND");

    private static final Set<String> BANDED_AMEND_OUTCOMES = Set.of(
            "amend PRICE_OUTSIDE_BAND");

    private static final Set<String> CANCEL_ALL_OUTCOMES = Set.of(
            "cancel-all of every instrument CANCEL_ALL canceled orders",
            "cancel-all of every instrument CANCEL_ALL_AFTER canceled orders",
            "cancel-all of one instrument CANCEL_ALL canceled orders",
            "cancel-all of one instrument CANCEL_ALL_AFTER canceled orders",
            "cancel-all canceled nothing",
            "cancel on disconnect canceled orders",
            "cancel on disconnect canceled nothing");

    private static final Set<String> LIMIT_BAND_OUTCOMES = Set.of(
            "LIMIT BUY outside the band REJECTED",
            "LIMIT SELL outside the band REJECTED");

    /** Reached only when the mid drifts: liquidity beyond the band exists only once the reference moved away. */
    private static final Set<String> MARKET_BAND_OUTCOMES = Set.of(
            "MARKET BUY stopped by the band",
            "MARKET SELL stopped by the band",
            "MARKET stopped by the band after fills");

    /** Reached only on the thin instrument, where a trade far from the rest of the book moves the reference. */
    private static final Set<String> NEAR_EDGE_OUTCOMES = Set.of(
            "MARKET SELL met a bid beyond the band's near edge",
            "MARKET BUY met an ask beyond the band's near edge",
            "MARKET with self-trade prevention met a maker beyond the band's near edge",
            "LIMIT traded beyond the band's near edge",
            "amend traded beyond the band's near edge",
            "MARKET under FAR_EDGE_ONLY traded beyond the band's near edge");

    /** The results only balances produce. */
    private static final Set<CommandResult> BALANCE_RESULTS = EnumSet.of(CommandResult.INSUFFICIENT_BALANCE,
            CommandResult.FUNDED, CommandResult.FUNDING_DUPLICATE, CommandResult.FUNDING_MISMATCH,
            CommandResult.BALANCE_LIMIT_EXCEEDED, CommandResult.FEES_SET);

    /** Every result but the balances'; PRICE_BAND_SET where the generator changes bands (the banded runs). */
    private static final Set<CommandResult> RESULTS = EnumSet.complementOf(EnumSet.copyOf(BALANCE_RESULTS));

    /** Every reject reason but the balances'. */
    private static final Set<RejectReason> REASONS = EnumSet.complementOf(EnumSet.of(RejectReason.INSUFFICIENT_BALANCE));

    /** What only balances reach. */
    private static final Set<String> BALANCE_OUTCOMES = Set.of(
            "MARKET BUY stopped by funds after fills",
            "MARKET BUY stopped by funds before any fill",
            "amend refused for funds",
            "held funds released by a cancel",
            "held funds released by a cancel-all",
            "held funds released by self-trade prevention",
            "fees paid");

    @Test
    @Timeout(60)
    void matcherAgreesWithReferenceUnderTightLimits() {
        final Set<Object> outcomes = compare(20_240_611L, new EngineConfig(400, 80, 6, 300), new int[] {500, 0, 1_000},
                false);
        assertReached(outcomes, REASONS);
        assertReached(outcomes, RESULTS);
        assertReached(outcomes, EnumSet.allOf(OrderStatus.class));
        assertReached(outcomes, STP_OUTCOMES);
        assertReached(outcomes, AMEND_OUTCOMES);
        assertReached(outcomes, BANDED_AMEND_OUTCOMES);
        assertReached(outcomes, Set.of("amend TOO_MANY_PRICE_LEVELS"));
        assertReached(outcomes, CANCEL_ALL_OUTCOMES);
        assertReached(outcomes, LIMIT_BAND_OUTCOMES);
        assertReached(outcomes, NEAR_EDGE_OUTCOMES);
    }

    @Test
    @Timeout(60)
    void matcherAgreesWithReferenceOnDeepBooks() {
        final Set<Object> outcomes = compare(7L, new EngineConfig(2_500, 100_000, 10_000, 5_000), null, false);
        final Set<CommandResult> results = EnumSet.copyOf(RESULTS);
        results.removeAll(EnumSet.of(CommandResult.PRICE_OUTSIDE_BAND, CommandResult.TOO_MANY_PRICE_LEVELS,
                CommandResult.PRICE_BAND_SET));
        assertReached(outcomes, results);
        assertReached(outcomes, EnumSet.allOf(OrderStatus.class));
        assertReached(outcomes, STP_OUTCOMES);
        assertReached(outcomes, AMEND_OUTCOMES);
        assertReached(outcomes, CANCEL_ALL_OUTCOMES);
        assertFalse(outcomes.contains(RejectReason.PRICE_OUTSIDE_BAND), "a band without bands");
    }

    @Test
    @Timeout(60)
    void matcherAgreesWithReferenceOnDeepBooksWithBands() {
        final Set<Object> outcomes = compare(99L, new EngineConfig(2_500, 100_000, 10_000, 5_000),
                new int[] {300, 700, 1_000}, true);
        final Set<CommandResult> results = EnumSet.copyOf(RESULTS);
        results.remove(CommandResult.TOO_MANY_PRICE_LEVELS);
        assertReached(outcomes, results);
        assertReached(outcomes, STP_OUTCOMES);
        assertReached(outcomes, AMEND_OUTCOMES);
        assertReached(outcomes, BANDED_AMEND_OUTCOMES);
        assertReached(outcomes, CANCEL_ALL_OUTCOMES);
        assertReached(outcomes, LIMIT_BAND_OUTCOMES);
        assertReached(outcomes, MARKET_BAND_OUTCOMES);
        assertReached(outcomes, NEAR_EDGE_OUTCOMES);
    }

    /**
     * Balances, on books as deep as the tight run's and with bands: every rule of the balances reached, and after every
     * single command the invariants (of the matcher, with its balances: nothing negative, held what the resting orders
     * need, every asset adding up to its funding; and the reference's, computed apart) hold.
     */
    @Test
    @Timeout(120)
    void matcherAgreesWithReferenceWithBalancesAndNoAssetIsCreatedOrLost() {
        final Set<Object> outcomes = compare(31_337L, new EngineConfig(400, 80, 6, 300), new int[] {500, 0, 1_000},
                false, RISK);
        assertReached(outcomes, EnumSet.allOf(RejectReason.class));
        assertReached(outcomes, EnumSet.allOf(CommandResult.class));
        assertReached(outcomes, EnumSet.allOf(OrderStatus.class));
        assertReached(outcomes, BALANCE_OUTCOMES);
        assertReached(outcomes, STP_OUTCOMES);
        assertReached(outcomes, CANCEL_ALL_OUTCOMES);
    }

    /**
     * Three assets: instrument 0 trades A against Q (a lot worth 1 unit of A, price unit x lot worth 1 of Q) with a
     * 0.1% maker and 0.2% taker fee; instrument 1 trades B against Q with larger units (10 and 3) and no fees; the thin
     * instrument 2 trades A against B, so that an asset is base on one instrument and quote on another.
     */
    static final RiskRules RISK = new RiskRules(new String[] {"A", "Q", "B"}, new int[] {2, 2, 2}, new int[] {0, 2, 0},
            new int[] {1, 1, 2}, new long[] {1, 10, 1}, new long[] {1, 3, 1}, new int[] {1_000, 0, 0},
            new int[] {2_000, 0, 500}, "fees");

    private static void assertReached(final Set<Object> outcomes, final Set<?> required) {
        final Set<String> missing = new TreeSet<>();
        for (final Object outcome : required) {
            if (!outcomes.contains(outcome)) {
                missing.add(outcome.toString());
            }
        }
        assertTrue(missing.isEmpty(), "never reached " + missing + "; reached " + new TreeSet<>(
                outcomes.stream().map(Object::toString).toList()));
    }

    /**
     * @param bands per instrument, or null for the constructors without bands
     * @param driftingMid see {@link CommandGenerator}
     * @return every status, reject reason and command result that occurred, and the names of the outcomes
     *         {@link #collect} recognises
     */
    private static Set<Object> compare(final long seed, final EngineConfig limits, final int[] bands,
                                       final boolean driftingMid) {
        return compare(seed, limits, bands, driftingMid, null);
    }

    /** @param risk the balances' rules, null for none; with them the invariants are checked after every command */
    private static Set<Object> compare(final long seed, final EngineConfig limits, final int[] bands,
                                       final boolean driftingMid, final RiskRules risk) {
        final RecordingEventSink expectedEvents = new RecordingEventSink();
        final RecordingEventSink actualEvents = new RecordingEventSink();
        final OrderEngine reference = risk != null
                ? new ReferenceMatcher(SYMBOLS, limits, bands, risk, expectedEvents)
                : bands == null ? new ReferenceMatcher(SYMBOLS, limits, expectedEvents)
                : new ReferenceMatcher(SYMBOLS, limits, bands, expectedEvents);
        // with its storage reserved, as the service runs it when its heap fits the limits (the pools' lazy growth is
        // ObjectPoolTest's)
        final OrderEngine matcher = (risk != null ? new MatcherEngine(SYMBOLS, limits, bands, risk, actualEvents)
                : bands == null ? new MatcherEngine(SYMBOLS, limits, actualEvents)
                : new MatcherEngine(SYMBOLS, limits, bands, actualEvents)).reserved();
        final CommandGenerator generator = new CommandGenerator(seed, SYMBOLS, limits.dedupWindow(), driftingMid)
                .withThinInstrument();
        if (risk != null) {
            generator.withFunding(risk);
        }
        final List<Command> commands = (bands == null ? generator : generator.withBandChanges()).generate(COMMANDS);
        final Set<Object> outcomes = new HashSet<>();
        final BandOracle oracle = new BandOracle(SYMBOLS, bands);
        for (int i = 0; i < commands.size(); i++) {
            final Command command = commands.get(i);
            final Arrival arrival = Arrival.of(command, oracle, matcher);
            command.applyTo(reference, i);
            command.applyTo(matcher, i);
            if (!expectedEvents.events().equals(actualEvents.events())) {
                throw new AssertionError("command " + i + " " + command + "\n expected " + expectedEvents.events()
                        + "\n actual   " + actualEvents.events());
            }
            collect(command, expectedEvents.events(), outcomes);
            arrival.check(command, expectedEvents.events(), outcomes);
            oracle.after(command, expectedEvents.events());
            expectedEvents.clear();
            actualEvents.clear();
            if (i % BOOK_CHECK_INTERVAL == 0) {
                assertSameBooks(reference, matcher, i);
                matcher.checkInvariants();
            }
            if (risk != null) {
                matcher.checkInvariants();
                if (i % 10 == 0) {
                    reference.checkInvariants();
                }
            }
        }
        assertSameBooks(reference, matcher, commands.size());
        matcher.checkInvariants();
        reference.checkInvariants();
        assertEquals(List.of(reference.lastOrderId(), reference.lastTradeId(), reference.lastEventSequence(),
                        (long) reference.restingOrderCount()),
                List.of(matcher.lastOrderId(), matcher.lastTradeId(), matcher.lastEventSequence(),
                        (long) matcher.restingOrderCount()));
        assertTrue(matcher.lastTradeId() > COMMANDS / 10, "too few trades: " + matcher.lastTradeId());
        return outcomes;
    }

    /**
     * What a command met on arrival, for the band's rules: each instrument's band (of the command's instrument for a
     * place; of all of them for an amend, whose instrument is known from its events only) and, for a MARKET order, the
     * best opposite price.
     */
    private record Arrival(BandOracle.Band[] bands, Long bestOpposite) {

        static Arrival of(final Command command, final BandOracle oracle, final OrderEngine books) {
            final BandOracle.Band[] bands = new BandOracle.Band[SYMBOLS];
            Long bestOpposite = null;
            if (command.kind() == Command.Kind.PLACE) {
                bands[command.symbol()] = oracle.bandOnArrival(command.symbol(), books);
                if (command.type() == OrderType.MARKET) {
                    final List<OrderEngine.Level> opposite = books.levels(command.symbol(), command.side().opposite());
                    bestOpposite = opposite.isEmpty() ? null : opposite.get(0).price();
                }
            } else if (command.kind() == Command.Kind.AMEND) {
                for (int symbol = 0; symbol < SYMBOLS; symbol++) {
                    bands[symbol] = oracle.bandOnArrival(symbol, books);
                }
            }
            return new Arrival(bands, bestOpposite);
        }

        /**
         * Holds the command's trades to the band's rules and to price priority, and names what it reached: a MARKET
         * order trades only inside the band taken on its arrival (under {@link MarketBandRule#FAR_EDGE_ONLY}, beyond
         * its near edge too), and when the best maker is beyond the near edge it trades nothing and touches nothing;
         * a LIMIT order (placed or amended) trades at its price or better, beyond the band only on its near edge.
         */
        void check(final Command command, final List<RecordedEvent> events, final Set<Object> outcomes) {
            int symbol = -1;
            Side side = null;
            OrderType type = OrderType.LIMIT;
            long limit = 0;
            for (final RecordedEvent event : events) {
                if (event instanceof RecordedEvent.Accepted a) {
                    symbol = a.symbol();
                    side = a.side();
                    type = a.type();
                    limit = a.price();
                } else if (event instanceof RecordedEvent.Amended a) {
                    symbol = a.symbol();
                    side = a.side();
                    limit = a.price();
                }
            }
            if (side == null) {
                return;
            }
            final BandOracle.Band band = bands[symbol];
            final String taker = command.kind() == Command.Kind.AMEND ? "amend" : "LIMIT";
            long previous = -1;
            for (final RecordedEvent event : events) {
                if (!(event instanceof RecordedEvent.Trade t)) {
                    continue;
                }
                final long price = t.price();
                assertTrue(previous < 0 || (side == Side.BUY ? price >= previous : price <= previous),
                        "a taker traded a worse price before a better one: " + command + " " + events);
                previous = price;
                if (type == OrderType.LIMIT) {
                    assertTrue(side == Side.BUY ? price <= limit : price >= limit,
                            "a LIMIT order traded beyond its price: " + command + " " + events);
                    if (!band.inside(price)) {
                        assertTrue(band.beyondNearEdge(side, price),
                                "a LIMIT order inside the band traded beyond its far edge: " + command + " " + events);
                        outcomes.add(taker + " traded beyond the band's near edge");
                    }
                } else if (!band.inside(price)) {
                    assertEquals(MarketBandRule.FAR_EDGE_ONLY, band.rule(),
                            "a MARKET order traded outside the band: " + band + " " + command + " " + events);
                    assertTrue(band.beyondNearEdge(side, price),
                            "a MARKET order traded beyond the band's far edge: " + command + " " + events);
                    outcomes.add("MARKET under FAR_EDGE_ONLY traded beyond the band's near edge");
                }
            }
            if (type == OrderType.MARKET && bestOpposite != null && band.rule() == MarketBandRule.BOTH_EDGES
                    && band.beyondNearEdge(side, bestOpposite)) {
                final List<RecordedEvent> orderEvents = events.stream()
                        .filter(e -> !(e instanceof RecordedEvent.Balance)).toList();
                assertEquals(3, orderEvents.size(), "a MARKET order meeting a maker beyond the band's near edge "
                        + "touches nothing: " + command + " " + events);
                final RecordedEvent.Updated update = (RecordedEvent.Updated) orderEvents.get(1);
                assertEquals(List.of(OrderStatus.EXPIRED, RejectReason.PRICE_OUTSIDE_BAND, 0L),
                        List.of(update.status(), update.rejectReason(), update.filled()), command + " " + events);
                outcomes.add("MARKET " + side + " met " + (side == Side.SELL ? "a bid" : "an ask")
                        + " beyond the band's near edge");
                if (command.selfTradePrevention() != SelfTradePrevention.NONE) {
                    outcomes.add("MARKET with self-trade prevention met a maker beyond the band's near edge");
                }
            }
        }
    }

    private static void assertSameBooks(final OrderEngine expected, final OrderEngine actual, final int afterCommand) {
        for (int symbol = 0; symbol < SYMBOLS; symbol++) {
            for (final Side side : Side.values()) {
                assertEquals(expected.levels(symbol, side), actual.levels(symbol, side),
                        "book " + symbol + " " + side + " after command " + afterCommand);
            }
        }
    }

    /**
     * Adds what one command's events reached, and checks what must hold whatever the engine: no self-trade
     * unless the taker's mode is NONE, a FOK never partly filled.
     */
    /** Names what the balances reached in one command, and checks that a funding is answered once. */
    private static void collectBalances(final Command command, final List<RecordedEvent> events,
                                        final Set<Object> outcomes, final boolean makerCanceled) {
        for (final RecordedEvent event : events) {
            if (event instanceof RecordedEvent.Funded f) {
                assertEquals(Command.Kind.FUND, command.kind(), "a funding result of " + command);
                outcomes.add(f.result());
            } else if (event instanceof RecordedEvent.Balance b) {
                if (b.cause() == BalanceCause.FEE) {
                    outcomes.add("fees paid");
                } else if (b.cause() == BalanceCause.RELEASE) {
                    switch (command.kind()) {
                        case CANCEL -> outcomes.add("held funds released by a cancel");
                        case CANCEL_ALL -> outcomes.add("held funds released by a cancel-all");
                        case PLACE -> {
                            if (makerCanceled) {
                                outcomes.add("held funds released by self-trade prevention");
                            }
                        }
                        default -> {
                        }
                    }
                }
            } else if (event instanceof RecordedEvent.Completed c && command.kind() == Command.Kind.AMEND
                    && c.result() == CommandResult.INSUFFICIENT_BALANCE) {
                outcomes.add("amend refused for funds");
            }
        }
    }

    private static void collect(final Command command, final List<RecordedEvent> events, final Set<Object> outcomes) {
        RecordedEvent.Accepted accepted = null;
        RecordedEvent.Amended amended = null;
        RecordedEvent.Updated last = null;
        RecordedEvent.Completed completed = null;
        boolean makerCanceled = false;
        boolean tradedAfterCancel = false;
        boolean traded = false;
        boolean selfTrade = false;
        int canceledByCancelAll = 0;
        for (final RecordedEvent event : events) {
            if (event instanceof RecordedEvent.Updated u) {
                outcomes.add(u.status());
                outcomes.add(u.rejectReason());
                if (u.status() == OrderStatus.CANCELED && u.rejectReason() == RejectReason.SELF_TRADE_PREVENTED) {
                    makerCanceled = true;
                }
                if (u.rejectReason() == RejectReason.CANCEL_ALL || u.rejectReason() == RejectReason.CANCEL_ALL_AFTER
                        || u.rejectReason() == RejectReason.CANCEL_ON_DISCONNECT) {
                    canceledByCancelAll++;
                }
                last = u;
            } else if (event instanceof RecordedEvent.Completed c) {
                outcomes.add(c.result());
                completed = c;
            } else if (event instanceof RecordedEvent.Trade t) {
                outcomes.add(t.makerStatus());
                traded = true;
                tradedAfterCancel |= makerCanceled;
                selfTrade |= t.takerAccountId().equals(t.makerAccountId());
            } else if (event instanceof RecordedEvent.Accepted a) {
                accepted = a;
            } else if (event instanceof RecordedEvent.Amended a) {
                amended = a;
            }
        }
        collectBalances(command, events, outcomes, makerCanceled);
        switch (command.kind()) {
            case PLACE -> {
                if (accepted == null) {
                    return;
                }
                if (last.rejectReason() == RejectReason.INSUFFICIENT_BALANCE && last.status() == OrderStatus.EXPIRED) {
                    assertEquals(Side.BUY, command.side(), "only a MARKET BUY is stopped by funds: " + events);
                    outcomes.add("MARKET BUY stopped by funds " + (last.filled() > 0 ? "after fills"
                            : "before any fill"));
                }
                final SelfTradePrevention stp = command.selfTradePrevention();
                final String label = command.type() == OrderType.MARKET ? "MARKET" : command.timeInForce().toString();
                if (selfTrade) {
                    outcomes.add("self-trade with " + stp);
                    assertEquals(SelfTradePrevention.NONE, stp, "self-trade by " + command + ": " + events);
                }
                if (command.timeInForce() == TimeInForce.FOK) {
                    assertTrue(last.status() == OrderStatus.FILLED || last.filled() == 0, "FOK partly filled: " + events);
                }
                if (last.rejectReason() == RejectReason.SELF_TRADE_PREVENTED) {
                    outcomes.add("STP " + stp + " expired the " + label + " taker");
                    if (last.filled() > 0) {
                        outcomes.add("STP expired a taker after fills");
                    }
                }
                if (makerCanceled) {
                    outcomes.add("STP " + stp + " canceled a maker");
                    if (last.status().isOpen()) {
                        outcomes.add("STP " + stp + " taker rested after canceling a maker");
                    }
                }
                if (tradedAfterCancel) {
                    outcomes.add("STP " + stp + " continued with the next maker");
                }
                if (last.rejectReason() == RejectReason.PRICE_OUTSIDE_BAND) {
                    if (command.type() == OrderType.LIMIT) {
                        outcomes.add("LIMIT " + command.side() + " outside the band " + last.status());
                    } else {
                        outcomes.add("MARKET " + command.side() + " stopped by the band");
                        if (last.filled() > 0) {
                            outcomes.add("MARKET stopped by the band after fills");
                        }
                    }
                }
            }
            case AMEND -> {
                if (completed.result() != CommandResult.AMENDED) {
                    outcomes.add("amend " + completed.result());
                } else if (amended.keptPriority()) {
                    outcomes.add("amend kept priority");
                } else if (last.status().isOpen() && !traded) {
                    outcomes.add("amend lost priority and rested " + last.status());
                } else if (traded && (last.status().isOpen() || last.status() == OrderStatus.FILLED)) {
                    outcomes.add("amend traded and " + last.status());
                } else {
                    outcomes.add("amend " + last.status() + " " + last.rejectReason());
                }
                if (selfTrade && amended != null) {
                    outcomes.add("amend self-traded");
                }
            }
            case CANCEL_ALL -> {
                long previous = 0;
                for (final RecordedEvent event : events) {
                    if (event instanceof RecordedEvent.Updated u) {
                        assertTrue(u.accountId().equals(command.accountId())
                                && (command.symbol() == -1 || u.symbol() == command.symbol())
                                && u.orderId() > previous && u.rejectReason() == command.cause(),
                                "a cancel-all cancels only its account's orders (of its instrument), lowest id first,"
                                        + " each with its cause: " + command + " " + events);
                        previous = u.orderId();
                    }
                }
                if (canceledByCancelAll == 0) {
                    outcomes.add("cancel-all canceled nothing");
                } else {
                    outcomes.add("cancel-all of " + (command.symbol() == -1 ? "every instrument" : "one instrument")
                            + " " + command.cause() + " canceled orders");
                }
            }
            case CANCEL_ON_DISCONNECT -> {
                long previous = 0;
                for (final RecordedEvent event : events) {
                    if (event instanceof RecordedEvent.Updated u) {
                        assertTrue(u.accountId().equals(command.accountId()) && u.orderId() > previous
                                && u.status() == OrderStatus.CANCELED
                                && u.rejectReason() == RejectReason.CANCEL_ON_DISCONNECT,
                                "a cancel on disconnect cancels only its account's orders, lowest id first: " + command
                                        + " " + events);
                        previous = u.orderId();
                    }
                }
                outcomes.add(canceledByCancelAll == 0 ? "cancel on disconnect canceled nothing"
                        : "cancel on disconnect canceled orders");
            }
            default -> {
            }
        }
    }
}
