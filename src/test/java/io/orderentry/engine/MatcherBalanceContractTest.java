package io.orderentry.engine;

/** The balances' contract, proven for the {@link Matcher}. */
class MatcherBalanceContractTest extends BalanceContractTest {

    @Override
    OrderEngine newEngine(final int symbolCount, final EngineConfig limits, final EventSink sink) {
        return new MatcherEngine(symbolCount, limits, sink);
    }

    @Override
    OrderEngine newEngine(final int symbolCount, final EngineConfig limits, final RiskRules risk,
                          final EventSink sink) {
        return new MatcherEngine(symbolCount, limits, null, risk, sink);
    }
}
