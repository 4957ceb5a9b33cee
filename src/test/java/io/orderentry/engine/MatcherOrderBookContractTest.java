package io.orderentry.engine;

/** The order-book contract, proven for the {@link Matcher}. */
class MatcherOrderBookContractTest extends OrderBookContractTest {

    @Override
    OrderEngine newEngine(final int symbolCount, final EngineConfig limits, final EventSink sink) {
        return new MatcherEngine(symbolCount, limits, sink);
    }
}
