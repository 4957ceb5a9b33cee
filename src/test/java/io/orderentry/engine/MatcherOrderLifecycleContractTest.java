package io.orderentry.engine;

/** The order-lifecycle contract, proven for the {@link Matcher}. */
class MatcherOrderLifecycleContractTest extends OrderLifecycleContractTest {

    @Override
    OrderEngine newEngine(final int symbolCount, final EngineConfig limits, final EventSink sink) {
        return new MatcherEngine(symbolCount, limits, sink);
    }
}
