package io.orderentry.engine;

/** The balances' contract, proven for the {@link ReferenceMatcher}. */
class ReferenceBalanceContractTest extends BalanceContractTest {

    @Override
    OrderEngine newEngine(final int symbolCount, final EngineConfig limits, final EventSink sink) {
        return new ReferenceMatcher(symbolCount, limits, sink);
    }

    @Override
    OrderEngine newEngine(final int symbolCount, final EngineConfig limits, final RiskRules risk,
                          final EventSink sink) {
        return new ReferenceMatcher(symbolCount, limits, new int[symbolCount], risk, sink);
    }
}
