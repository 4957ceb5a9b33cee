package io.orderentry.engine;

/** The price band's edges, proven for the {@link Matcher}. */
class MatcherPriceBandContractTest extends PriceBandContractTest {

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
