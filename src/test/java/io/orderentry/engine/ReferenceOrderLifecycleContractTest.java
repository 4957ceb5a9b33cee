package io.orderentry.engine;

/** The order-lifecycle contract, proven for the {@link ReferenceMatcher} that the differential test trusts. */
class ReferenceOrderLifecycleContractTest extends OrderLifecycleContractTest {

    @Override
    OrderEngine newEngine(final int symbolCount, final EngineConfig limits, final EventSink sink) {
        return new ReferenceMatcher(symbolCount, limits, sink);
    }
}
