package io.orderentry.engine;

/** The order-book contract, proven for the {@link ReferenceMatcher} that the differential test trusts. */
class ReferenceOrderBookContractTest extends OrderBookContractTest {

    @Override
    OrderEngine newEngine(final int symbolCount, final EngineConfig limits, final EventSink sink) {
        return new ReferenceMatcher(symbolCount, limits, sink);
    }
}
