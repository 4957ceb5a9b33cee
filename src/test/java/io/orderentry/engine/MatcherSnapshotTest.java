package io.orderentry.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * A matcher restored from a snapshot is the matcher that wrote it: the same books, ids and dedup window, so every
 * later command gives the same events as in a matcher that never stopped.
 */
class MatcherSnapshotTest {

    private static final int SYMBOLS = 2;
    private static final EngineConfig LIMITS = new EngineConfig(500, 60, 20, 300);
    /** A band on the first instrument, so that the last trade price a snapshot keeps matters to later commands. */
    private static final int[] BANDS = {500, 0};

    @Test
    void matcherRestoredAtAnyPointAnswersEveryLaterCommandLikeOneThatNeverRestarted() throws IOException {
        final List<Command> commands = new CommandGenerator(7, SYMBOLS, LIMITS.dedupWindow()).generate(12_000);
        final Random random = new Random(11);
        for (int trial = 0; trial < 8; trial++) {
            final int cut = trial == 0 ? 0 : random.nextInt(commands.size());
            final RecordingEventSink continuous = new RecordingEventSink();
            final Matcher original = new Matcher(SYMBOLS, LIMITS, BANDS, continuous);
            for (int i = 0; i < cut; i++) {
                apply(commands.get(i), original, i);
            }
            final RecordingEventSink restoredEvents = new RecordingEventSink();
            final Matcher restored = new Matcher(SYMBOLS, LIMITS, BANDS, restoredEvents);
            restored.restoreSnapshot(input(snapshot(original)));
            assertSameState(original, restored);
            continuous.clear();
            for (int i = cut; i < commands.size(); i++) {
                apply(commands.get(i), original, i);
                apply(commands.get(i), restored, i);
            }
            assertEquals(continuous.events(), restoredEvents.events(), "events after a snapshot at command " + cut);
            assertSameState(original, restored);
            MatcherInvariants.check(restored, SYMBOLS);
        }
    }

    @Test
    void matcherWithBalancesRestoredAtAnyPointHoldsSettlesAndAnswersFundingRetriesLikeOneThatNeverRestarted()
            throws IOException {
        final RiskRules risk = MatcherDifferentialTest.RISK;
        final int symbols = risk.symbolCount();
        final int[] bands = {500, 0, 0};
        final List<Command> commands = new CommandGenerator(5, symbols, LIMITS.dedupWindow()).withFunding(risk)
                .generate(12_000);
        final Random random = new Random(13);
        for (int trial = 0; trial < 6; trial++) {
            final int cut = trial == 0 ? 0 : random.nextInt(commands.size());
            final RecordingEventSink continuous = new RecordingEventSink();
            final Matcher original = new Matcher(symbols, LIMITS, bands, risk, continuous);
            for (int i = 0; i < cut; i++) {
                apply(commands.get(i), original, i);
            }
            final RecordingEventSink restoredEvents = new RecordingEventSink();
            final Matcher restored = new Matcher(symbols, LIMITS, bands, risk, restoredEvents);
            restored.restoreSnapshot(input(snapshot(original)));
            assertSameBalances(original, restored, risk);
            continuous.clear();
            for (int i = cut; i < commands.size(); i++) {
                apply(commands.get(i), original, i);
                apply(commands.get(i), restored, i);
            }
            assertEquals(continuous.events(), restoredEvents.events(), "events after a snapshot at command " + cut);
            assertSameBalances(original, restored, risk);
            MatcherInvariants.check(restored, symbols);
        }
    }

    @Test
    void aSnapshotWithBalancesIsRefusedByAMatcherWithoutThemAndTheOtherWayRound() throws IOException {
        final RiskRules risk = MatcherDifferentialTest.RISK;
        final Matcher withBalances = new Matcher(3, LIMITS, null, risk, new RecordingEventSink());
        withBalances.fund(1, "a", 1, 1_000, "dep-1");
        final byte[] balances = snapshot(withBalances);
        final byte[] none = snapshot(new Matcher(3, LIMITS, new RecordingEventSink()));
        assertThrows(IOException.class, () -> new Matcher(3, LIMITS, new RecordingEventSink())
                .restoreSnapshot(input(balances)));
        assertThrows(IOException.class, () -> new Matcher(3, LIMITS, null, risk, new RecordingEventSink())
                .restoreSnapshot(input(none)));
        final Matcher restored = new Matcher(3, LIMITS, null, risk, new RecordingEventSink());
        restored.restoreSnapshot(input(balances));
        assertEquals(List.of(1_000L, 1_000L), List.of(restored.available("a", 1), restored.supply(1)));
    }

    @Test
    void aSnapshotWhoseHeldBalanceIsNotWhatItsOrdersHoldIsRefused() throws IOException {
        final RiskRules risk = MatcherDifferentialTest.RISK;
        final Matcher original = new Matcher(3, LIMITS, null, risk, new RecordingEventSink());
        original.fund(1, "a", 1, 1_000, "dep-1");
        original.place(2, "a", null, 0, Side.BUY, OrderType.LIMIT, TimeInForce.GTC, false, 10, 3);
        final byte[] bytes = snapshot(original);
        // the balances come last: per account "a" (UTF), then per asset available and held, then the supplies and
        // an empty list of... fundings; find asset 1's held (30) and available (970) and move 1 unit between them
        final java.nio.ByteBuffer buffer = java.nio.ByteBuffer.wrap(bytes);
        int at = -1;
        for (int i = 0; i + 16 <= bytes.length; i++) {
            if (buffer.getLong(i) == 970 && buffer.getLong(i + 8) == 30) {
                at = i;
            }
        }
        buffer.putLong(at, 971);
        buffer.putLong(at + 8, 29);
        final IOException refused = assertThrows(IOException.class,
                () -> new Matcher(3, LIMITS, null, risk, new RecordingEventSink()).restoreSnapshot(input(bytes)));
        assertEquals(true, refused.getMessage().contains("its resting orders 30"), refused.getMessage());
    }

    @Test
    void snapshotKeepsPartiallyFilledOrdersTheirPlaceInTheQueueAndDuplicatesTheirOriginal() throws IOException {
        final RecordingEventSink events = new RecordingEventSink();
        final Matcher original = new Matcher(SYMBOLS, LIMITS, events);
        original.place(1, "a", "a-1", 0, Side.SELL, OrderType.LIMIT, TimeInForce.GTC, false, 1_000, 10);
        original.place(2, "b", null, 0, Side.SELL, OrderType.LIMIT, TimeInForce.GTC, false, 1_000, 5);
        original.place(3, "c", "c-1", 0, Side.BUY, OrderType.LIMIT, TimeInForce.IOC, false, 1_000, 4);
        final Matcher restored = new Matcher(SYMBOLS, LIMITS, events);
        restored.restoreSnapshot(input(snapshot(original)));
        events.clear();
        restored.place(4, "d", null, 0, Side.BUY, OrderType.MARKET, TimeInForce.IOC, false, 0, 7);
        final List<Long> makers = new ArrayList<>();
        for (final RecordedEvent event : events.events()) {
            if (event instanceof RecordedEvent.Trade trade) {
                makers.add(trade.makerOrderId());
            }
        }
        assertEquals(List.of(1L, 2L), makers, "the partially filled order 1 keeps its place ahead of order 2");
        events.clear();
        restored.place(5, "a", "a-1", 0, Side.SELL, OrderType.LIMIT, TimeInForce.GTC, false, 1_000, 10);
        assertEquals(CommandResult.DUPLICATE, events.completion().result());
        assertEquals(1, events.completion().orderId());
        assertEquals(4, restored.lastOrderId());
    }

    @Test
    void emptyMatcherRoundTrips() throws IOException {
        final Matcher restored = new Matcher(SYMBOLS, LIMITS, new RecordingEventSink());
        restored.restoreSnapshot(input(snapshot(new Matcher(SYMBOLS, LIMITS, new RecordingEventSink()))));
        assertEquals(0, restored.lastOrderId());
        assertEquals(0, restored.restingOrderCount());
    }

    @Test
    void snapshotOfFewerInstrumentsRestoresIntoAMatcherWithANewOneEmpty() throws IOException {
        final Matcher original = new Matcher(1, LIMITS, new RecordingEventSink());
        original.place(1, "a", null, 0, Side.BUY, OrderType.LIMIT, TimeInForce.GTC, false, 990, 3);
        final Matcher restored = new Matcher(2, LIMITS, new RecordingEventSink());
        restored.restoreSnapshot(input(snapshot(original)));
        assertEquals(1, restored.restingOrderCount());
        restored.place(2, "b", null, 1, Side.BUY, OrderType.LIMIT, TimeInForce.GTC, false, 990, 3);
        assertEquals(2, restored.restingOrderCount());
    }

    @Test
    void truncatedOrDamagedSnapshotIsRefusedWithAnIoException() throws IOException {
        final Matcher original = new Matcher(SYMBOLS, LIMITS, new RecordingEventSink());
        final List<Command> commands = new CommandGenerator(3, SYMBOLS).generate(2_000);
        for (int i = 0; i < commands.size(); i++) {
            apply(commands.get(i), original, i);
        }
        final byte[] bytes = snapshot(original);
        for (final int length : new int[] {0, 3, 20, bytes.length / 3, bytes.length / 2, bytes.length - 1}) {
            final byte[] cut = java.util.Arrays.copyOf(bytes, length);
            assertThrows(IOException.class, () -> new Matcher(SYMBOLS, LIMITS, new RecordingEventSink())
                    .restoreSnapshot(input(cut)), "cut at " + length);
        }
        final byte[] otherVersion = bytes.clone();
        otherVersion[3] = 9;
        assertThrows(IOException.class, () -> new Matcher(SYMBOLS, LIMITS, new RecordingEventSink())
                .restoreSnapshot(input(otherVersion)));
        assertThrows(IOException.class, () -> new Matcher(1, LIMITS, new RecordingEventSink())
                .restoreSnapshot(input(bytes)), "more instruments than configured");
    }

    @Test
    void eachBandKeepsItsMarketRuleThroughASnapshot() throws IOException {
        final Matcher original = new Matcher(SYMBOLS, LIMITS, BANDS, new RecordingEventSink());
        original.setPriceBand(1, 0, 700, MarketBandRule.FAR_EDGE_ONLY);
        final Matcher restored = new Matcher(SYMBOLS, LIMITS, new RecordingEventSink());
        restored.restoreSnapshot(input(snapshot(original)));
        assertEquals(List.of(700, 0), List.of(restored.priceBand(0), restored.priceBand(1)));
        assertEquals(List.of(MarketBandRule.FAR_EDGE_ONLY, MarketBandRule.CURRENT),
                List.of(restored.priceBandRule(0), restored.priceBandRule(1)));
    }

    @Test
    void aVersion2SnapshotRestoresItsBandsUnderTheRuleOfTheBuildsThatWroteIt() throws IOException {
        final Matcher original = new Matcher(SYMBOLS, LIMITS, BANDS, new RecordingEventSink());
        final byte[] v3 = snapshot(original);
        // empty books: 32 bytes of header and ids, an int of levels per side; then per instrument a long, an int and
        // (version 3 only) the rule byte; then the dedup window
        final int bands = 32 + SYMBOLS * 2 * Integer.BYTES;
        final ByteArrayOutputStream v2 = new ByteArrayOutputStream();
        v2.write(v3, 0, bands);
        for (int symbol = 0; symbol < SYMBOLS; symbol++) {
            v2.write(v3, bands + symbol * 13, 12);
        }
        v2.write(v3, bands + SYMBOLS * 13, v3.length - bands - SYMBOLS * 13);
        final byte[] bytes = v2.toByteArray();
        bytes[3] = 2;
        final Matcher restored = new Matcher(SYMBOLS, LIMITS, new RecordingEventSink());
        restored.restoreSnapshot(input(bytes));
        assertEquals(500, restored.priceBand(0));
        assertEquals(MarketBandRule.FAR_EDGE_ONLY, restored.priceBandRule(0));
    }

    private static void apply(final Command command, final Matcher matcher, final long i) {
        command.applyTo(matcher, 1_000L * i);
    }

    private static void assertSameState(final Matcher expected, final Matcher actual) {
        assertEquals(expected.lastOrderId(), actual.lastOrderId());
        assertEquals(expected.lastTradeId(), actual.lastTradeId());
        assertEquals(expected.lastEventSequence(), actual.lastEventSequence());
        assertEquals(expected.restingOrderCount(), actual.restingOrderCount());
        for (int symbol = 0; symbol < SYMBOLS; symbol++) {
            for (final Side side : Side.values()) {
                assertEquals(levels(expected, symbol, side), levels(actual, symbol, side));
            }
        }
    }

    private static void assertSameBalances(final Matcher expected, final Matcher actual, final RiskRules risk) {
        assertSameState(expected, actual);
        for (int account = 0; account <= 7; account++) {
            for (int asset = 0; asset < risk.assetCount(); asset++) {
                final String id = "acct-" + account;
                assertEquals(List.of(expected.available(id, asset), expected.held(id, asset)),
                        List.of(actual.available(id, asset), actual.held(id, asset)), id + " asset " + asset);
            }
        }
        for (int asset = 0; asset < risk.assetCount(); asset++) {
            assertEquals(expected.supply(asset), actual.supply(asset));
            assertEquals(expected.available(risk.feeAccount(), asset), actual.available(risk.feeAccount(), asset));
        }
    }

    private static List<String> levels(final Matcher matcher, final int symbol, final Side side) {
        final List<String> levels = new ArrayList<>();
        matcher.forEachLevel(symbol, side, (price, total, count) -> levels.add(price + "x" + total + "/" + count));
        return levels;
    }

    private static byte[] snapshot(final Matcher matcher) throws IOException {
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            matcher.writeSnapshot(out);
        }
        return bytes.toByteArray();
    }

    private static DataInputStream input(final byte[] bytes) {
        return new DataInputStream(new ByteArrayInputStream(bytes));
    }
}
