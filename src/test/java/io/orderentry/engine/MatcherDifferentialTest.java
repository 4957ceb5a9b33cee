package io.orderentry.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Runs the same generated command stream through the {@link Matcher} and the naive
 * {@link ReferenceMatcher} and requires identical events for every command (fills, statuses,
 * quantities, ids, sequences, results), identical books along the way, and identical final books and
 * counters. Also requires that the stream reached every outcome, so a quiet generator cannot make
 * the comparison vacuous.
 */
class MatcherDifferentialTest {

    /*
     * Two configurations of 100,000 commands each: tight limits, so that every reject reason occurs
     * often, and a deep book (thousands of resting orders) where only the resting capacity ever binds.
     */

    private static final int COMMANDS = 100_000;
    private static final int SYMBOLS = 2;
    private static final int BOOK_CHECK_INTERVAL = 1_000;

    @Test
    @Timeout(60)
    void matcherAgreesWithReferenceUnderTightLimits() {
        final Set<Object> outcomes = compare(20_240_611L, new EngineLimits(400, 80, 6, 300));
        assertTrue(outcomes.containsAll(EnumSet.allOf(RejectReason.class)), "reject reasons reached: " + outcomes);
        assertTrue(outcomes.containsAll(EnumSet.allOf(CommandResult.class)), "results reached: " + outcomes);
        assertTrue(outcomes.containsAll(EnumSet.allOf(OrderStatus.class)), "statuses reached: " + outcomes);
    }

    @Test
    @Timeout(60)
    void matcherAgreesWithReferenceOnDeepBooks() {
        final Set<Object> outcomes = compare(7L, new EngineLimits(2_500, 100_000, 10_000, 5_000));
        assertTrue(outcomes.containsAll(EnumSet.allOf(CommandResult.class)), "results reached: " + outcomes);
        assertTrue(outcomes.containsAll(EnumSet.allOf(OrderStatus.class)), "statuses reached: " + outcomes);
    }

    /** @return every status, reject reason and command result that occurred */
    private static Set<Object> compare(final long seed, final EngineLimits limits) {
        final RecordingEventSink expectedEvents = new RecordingEventSink();
        final RecordingEventSink actualEvents = new RecordingEventSink();
        final OrderEngine reference = new ReferenceMatcher(SYMBOLS, limits, expectedEvents);
        final OrderEngine matcher = new MatcherEngine(SYMBOLS, limits, actualEvents);
        final List<Command> commands = new CommandGenerator(seed, SYMBOLS).generate(COMMANDS);
        final Set<Object> outcomes = new HashSet<>();
        for (int i = 0; i < commands.size(); i++) {
            final Command command = commands.get(i);
            command.applyTo(reference, i);
            command.applyTo(matcher, i);
            if (!expectedEvents.events().equals(actualEvents.events())) {
                throw new AssertionError("command " + i + " " + command + "\n expected " + expectedEvents.events()
                        + "\n actual   " + actualEvents.events());
            }
            collect(expectedEvents.events(), outcomes);
            expectedEvents.clear();
            actualEvents.clear();
            if (i % BOOK_CHECK_INTERVAL == 0) {
                assertSameBooks(reference, matcher, i);
                matcher.checkInvariants();
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

    private static void assertSameBooks(final OrderEngine expected, final OrderEngine actual, final int afterCommand) {
        for (int symbol = 0; symbol < SYMBOLS; symbol++) {
            for (final Side side : Side.values()) {
                assertEquals(expected.levels(symbol, side), actual.levels(symbol, side),
                        "book " + symbol + " " + side + " after command " + afterCommand);
            }
        }
    }

    private static void collect(final List<RecordedEvent> events, final Set<Object> outcomes) {
        for (final RecordedEvent event : events) {
            if (event instanceof RecordedEvent.Updated u) {
                outcomes.add(u.status());
                outcomes.add(u.rejectReason());
            } else if (event instanceof RecordedEvent.Completed c) {
                outcomes.add(c.result());
            } else if (event instanceof RecordedEvent.Trade t) {
                outcomes.add(t.makerStatus());
            }
        }
    }
}
