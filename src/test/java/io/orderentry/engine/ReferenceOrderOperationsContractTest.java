package io.orderentry.engine;

/** The order-operations contract, proven for the {@link ReferenceMatcher} that the differential test trusts. */
class ReferenceOrderOperationsContractTest extends OrderOperationsContractTest {

    @Override
    OrderEngine newEngine(final int symbolCount, final EngineConfig limits, final EventSink sink) {
        return new ReferenceMatcher(symbolCount, limits, sink);
    }

    @Override
    OrderEngine newEngine(final int symbolCount, final EngineConfig limits, final int[] priceBandBasisPoints,
                          final EventSink sink) {
        return new ReferenceMatcher(symbolCount, limits, priceBandBasisPoints, sink);
    }
}
