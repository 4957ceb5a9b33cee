package io.orderentry.engine;

/** The order-operations contract (amend, cancel-all, self-trade prevention, price bands), proven for the {@link Matcher}. */
class MatcherOrderOperationsContractTest extends OrderOperationsContractTest {

    @Override
    OrderEngine newEngine(final int symbolCount, final EngineConfig limits, final EventSink sink) {
        return new MatcherEngine(symbolCount, limits, sink);
    }

    @Override
    OrderEngine newEngine(final int symbolCount, final EngineConfig limits, final int[] priceBandBasisPoints,
                          final EventSink sink) {
        return new MatcherEngine(symbolCount, limits, priceBandBasisPoints, sink);
    }
}
