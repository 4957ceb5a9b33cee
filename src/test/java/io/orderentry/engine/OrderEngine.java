package io.orderentry.engine;

import java.util.ArrayList;
import java.util.List;

/**
 * What the contract tests drive: the {@link Matcher}'s public API, implemented by the matcher itself
 * (through {@link MatcherEngine}) and by the {@link ReferenceMatcher}, so that the same contract is
 * proven for both and the differential test can compare them.
 */
interface OrderEngine {

    /** One aggregated price level as {@link LevelVisitor} reports it. */
    record Level(long price, long totalQuantity, int orderCount) {
    }

    void place(long timestampMicros, String accountId, String clientOrderId, int symbol, Side side, OrderType type,
               TimeInForce timeInForce, boolean postOnly, long price, long quantity);

    void cancel(long timestampMicros, long orderId);

    long lastOrderId();

    long lastTradeId();

    long lastEventSequence();

    int restingOrderCount();

    void forEachLevel(int symbol, Side side, LevelVisitor visitor);

    /** Fails with an {@link AssertionError} when the engine's state is inconsistent. */
    void checkInvariants();

    /** @return one side of a book, best level first */
    default List<Level> levels(final int symbol, final Side side) {
        final List<Level> levels = new ArrayList<>();
        forEachLevel(symbol, side, (price, total, count) -> levels.add(new Level(price, total, count)));
        return levels;
    }
}
