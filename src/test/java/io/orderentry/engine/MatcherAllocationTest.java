package io.orderentry.engine;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Once its pools and tables have grown to the working set, the matcher allocates nothing per command.
 * Measured with the JVM's per-thread allocation counter over a generated stream that places, trades,
 * cancels, amends, cancels all, prevents self-trades, hits every time in force and a price band, and
 * recognises duplicates.
 */
class MatcherAllocationTest {

    private static final int SYMBOLS = 2;
    private static final int WARM_UP = 100_000;
    private static final int MEASURED = 100_000;

    /** Consumes events without keeping or allocating anything. */
    private static final class CountingSink implements EventSink {
        long events;
        long balanceEvents;

        @Override
        public void orderAccepted(final long eventSequence, final long timestampMicros, final long orderId,
                                  final String accountId, final String clientOrderId, final int symbol,
                                  final Side side, final OrderType type, final TimeInForce timeInForce,
                                  final boolean postOnly, final long price, final long quantity) {
            events += eventSequence;
        }

        @Override
        public void trade(final long eventSequence, final long timestampMicros, final long tradeId, final int symbol,
                          final long price, final long quantity, final Side takerSide, final long takerOrderId,
                          final String takerAccountId, final long takerFilledQuantity, final long makerOrderId,
                          final String makerAccountId, final long makerFilledQuantity, final OrderStatus makerStatus) {
            events += eventSequence;
        }

        @Override
        public void orderAmended(final long eventSequence, final long timestampMicros, final long orderId,
                                 final String accountId, final int symbol, final Side side, final long price,
                                 final long quantity, final long filledQuantity, final long previousPrice,
                                 final long previousQuantity, final boolean keptPriority) {
            events += eventSequence;
        }

        @Override
        public void orderUpdated(final long eventSequence, final long timestampMicros, final long orderId,
                                 final String accountId, final int symbol, final Side side, final long price,
                                 final long quantity, final long filledQuantity, final long remainingQuantity,
                                 final OrderStatus status, final RejectReason rejectReason) {
            events += eventSequence;
        }

        @Override
        public void balanceChanged(final long eventSequence, final long timestampMicros, final String accountId,
                                   final int asset, final long available, final long held, final long availableChange,
                                   final long heldChange, final long fee, final BalanceCause cause, final long orderId,
                                   final long tradeId, final String reference) {
            balanceEvents++;
        }

        @Override
        public void commandCompleted(final CommandResult result, final long orderId) {
            events++;
        }
    }

    @Test
    void steadyStateMatchingAllocatesNothing() {
        final com.sun.management.ThreadMXBean threads =
                (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        final EngineConfig limits = new EngineConfig(2_500, 100_000, 10_000, 5_000);
        final List<Command> commands = new CommandGenerator(11, SYMBOLS, limits.dedupWindow())
                .generate(WARM_UP + MEASURED);
        final CountingSink sink = new CountingSink();
        final Matcher matcher = new Matcher(SYMBOLS, limits, new int[] {500, 0}, sink);
        for (int i = 0; i < WARM_UP; i++) {
            apply(matcher, commands.get(i), i);
        }
        final long before = threads.getCurrentThreadAllocatedBytes();
        for (int i = WARM_UP; i < WARM_UP + MEASURED; i++) {
            apply(matcher, commands.get(i), i);
        }
        final long allocated = threads.getCurrentThreadAllocatedBytes() - before;
        assertTrue(sink.events > 0);
        assertTrue(allocated < 1_024, allocated + " bytes allocated by " + MEASURED + " commands");
    }

    @Test
    void steadyStateMatchingWithBalancesAllocatesNothing() {
        final com.sun.management.ThreadMXBean threads =
                (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        final EngineConfig limits = new EngineConfig(2_500, 100_000, 10_000, 5_000);
        final RiskRules risk = MatcherDifferentialTest.RISK;
        // fundings are admin commands that keep their reference, fee changes come once a start: the orders around them
        // are what must not allocate
        final List<Command> commands = new CommandGenerator(11, risk.symbolCount(), limits.dedupWindow())
                .withFunding(risk).generate(WARM_UP + MEASURED);
        final CountingSink sink = new CountingSink();
        final Matcher matcher = new Matcher(risk.symbolCount(), limits, new int[] {500, 0, 0}, risk, sink);
        for (int i = 0; i < WARM_UP; i++) {
            apply(matcher, commands.get(i), i);
        }
        final long before = threads.getCurrentThreadAllocatedBytes();
        for (int i = WARM_UP; i < WARM_UP + MEASURED; i++) {
            if (commands.get(i).kind() != Command.Kind.FUND && commands.get(i).kind() != Command.Kind.SET_FEES) {
                apply(matcher, commands.get(i), i);
            }
        }
        final long allocated = threads.getCurrentThreadAllocatedBytes() - before;
        assertTrue(sink.balanceEvents > MEASURED / 2, "balances moved: " + sink.balanceEvents);
        assertTrue(allocated < 1_024, allocated + " bytes allocated by " + MEASURED + " commands");
    }

    private static void apply(final Matcher matcher, final Command c, final long timestamp) {
        c.applyTo(matcher, timestamp);
    }
}
