package io.orderentry.engine;

/** The {@link Matcher} seen as an {@link OrderEngine}; invariant checks look inside it. */
final class MatcherEngine implements OrderEngine {

    private final Matcher matcher;
    private final int symbolCount;
    private final EngineConfig limits;

    /** A matcher made with the constructor without price bands. */
    MatcherEngine(final int symbolCount, final EngineConfig limits, final EventSink sink) {
        this.matcher = new Matcher(symbolCount, limits, sink);
        this.symbolCount = symbolCount;
        this.limits = limits;
    }

    /** @param priceBandBasisPoints per instrument, in basis points; 0 = no band */
    MatcherEngine(final int symbolCount, final EngineConfig limits, final int[] priceBandBasisPoints,
                  final EventSink sink) {
        this.matcher = new Matcher(symbolCount, limits, priceBandBasisPoints, sink);
        this.symbolCount = symbolCount;
        this.limits = limits;
    }

    /** A matcher that holds and settles balances by {@code risk}. */
    MatcherEngine(final int symbolCount, final EngineConfig limits, final int[] priceBandBasisPoints,
                  final RiskRules risk, final EventSink sink) {
        this.matcher = new Matcher(symbolCount, limits, priceBandBasisPoints, risk, sink);
        this.symbolCount = symbolCount;
        this.limits = limits;
    }

    /** @return the matcher itself, for snapshots */
    Matcher matcher() {
        return matcher;
    }

    @Override
    public void fund(final long timestampMicros, final String accountId, final int asset, final long amount,
                     final String reference) {
        matcher.fund(timestampMicros, accountId, asset, amount, reference);
    }

    @Override
    public void setFees(final long timestampMicros, final int symbol, final int makerFeeRate, final int takerFeeRate) {
        matcher.setFees(timestampMicros, symbol, makerFeeRate, takerFeeRate);
    }

    @Override
    public long available(final String accountId, final int asset) {
        return matcher.available(accountId, asset);
    }

    @Override
    public long held(final String accountId, final int asset) {
        return matcher.held(accountId, asset);
    }

    @Override
    public long balanceSum(final int asset) {
        if (matcher.funds == null) {
            return 0;
        }
        final BalanceTable table = matcher.funds.table;
        long sum = 0;
        for (int row = 0; row < table.rowCount(); row++) {
            sum += table.available[table.cell(row, asset)] + table.held[table.cell(row, asset)];
        }
        return sum;
    }

    @Override
    public long supply(final int asset) {
        return matcher.supply(asset);
    }

    /** Reserves the matcher's storage, as a service whose heap fits its limits does at start; @return this */
    MatcherEngine reserved() {
        matcher.reserveStorage();
        return this;
    }

    /** The matcher's own place without self-trade prevention, so that the contract tests exercise it too. */
    @Override
    public void place(final long timestampMicros, final String accountId, final String clientOrderId, final int symbol,
                      final Side side, final OrderType type, final TimeInForce timeInForce, final boolean postOnly,
                      final long price, final long quantity) {
        matcher.place(timestampMicros, accountId, clientOrderId, symbol, side, type, timeInForce, postOnly, price,
                quantity);
    }

    @Override
    public void place(final long timestampMicros, final String accountId, final String clientOrderId, final int symbol,
                      final Side side, final OrderType type, final TimeInForce timeInForce, final boolean postOnly,
                      final SelfTradePrevention selfTradePrevention, final long price, final long quantity,
                      final long session) {
        matcher.place(timestampMicros, accountId, clientOrderId, symbol, side, type, timeInForce, postOnly,
                selfTradePrevention, price, quantity, session);
    }

    @Override
    public void cancelOnDisconnect(final long timestampMicros, final String accountId, final long session) {
        matcher.cancelOnDisconnect(timestampMicros, accountId, session);
    }

    @Override
    public void cancel(final long timestampMicros, final long orderId) {
        matcher.cancel(timestampMicros, orderId);
    }

    @Override
    public void amend(final long timestampMicros, final long orderId, final long newPrice, final long newQuantity) {
        matcher.amend(timestampMicros, orderId, newPrice, newQuantity);
    }

    @Override
    public void cancelAll(final long timestampMicros, final String accountId, final int symbol,
                          final RejectReason cause) {
        matcher.cancelAll(timestampMicros, accountId, symbol, cause);
    }

    @Override
    public void setPriceBand(final long timestampMicros, final int symbol, final int basisPoints,
                             final MarketBandRule rule) {
        matcher.setPriceBand(timestampMicros, symbol, basisPoints, rule);
    }

    @Override
    public long lastOrderId() {
        return matcher.lastOrderId();
    }

    @Override
    public long lastTradeId() {
        return matcher.lastTradeId();
    }

    @Override
    public long lastEventSequence() {
        return matcher.lastEventSequence();
    }

    @Override
    public int restingOrderCount() {
        return matcher.restingOrderCount();
    }

    @Override
    public void forEachLevel(final int symbol, final Side side, final LevelVisitor visitor) {
        matcher.forEachLevel(symbol, side, visitor);
    }

    @Override
    public void checkInvariants() {
        BookInvariants.check(this, symbolCount, limits);
        MatcherInvariants.check(matcher, symbolCount);
    }
}
