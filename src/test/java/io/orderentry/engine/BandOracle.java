package io.orderentry.engine;

import java.math.BigInteger;
import java.util.Arrays;
import java.util.List;

/**
 * The price band rules of the contract, computed apart from both engines from what the differential test sees: each
 * instrument's band and rule (from the commands that set them), its last trade (from the trade events) and, before a
 * command, the best prices of the books. It says where an order may trade, so that a rule both engines break alike
 * (as both let a MARKET order trade beyond the band's near edge before issue 31) fails the test all the same.
 */
final class BandOracle {

    private static final BigInteger TEN_THOUSAND = BigInteger.valueOf(10_000);
    private static final BigInteger TWO = BigInteger.TWO;

    private final int[] bands;
    private final MarketBandRule[] rules;
    private final long[] lastTrades;

    /** @param bands per instrument, in basis points, or null for none */
    BandOracle(final int symbols, final int[] bands) {
        this.bands = bands == null ? new int[symbols] : bands.clone();
        this.rules = new MarketBandRule[symbols];
        Arrays.fill(rules, MarketBandRule.CURRENT);
        this.lastTrades = new long[symbols];
    }

    /** What an instrument's band was when a command arrived. */
    record Band(int symbol, MarketBandRule rule, BigInteger doubledReference, BigInteger doubledHalfWidth) {

        /** @return whether there is a band at all: one set, and a reference to put it around */
        boolean exists() {
            return doubledHalfWidth != null;
        }

        boolean inside(final long price) {
            return !exists() || BigInteger.valueOf(price).multiply(TWO).subtract(doubledReference).abs()
                    .compareTo(doubledHalfWidth) <= 0;
        }

        /**
         * @return whether a maker at this price is beyond the near edge for a taker of this side: for a SELL taker a
         *         bid above the band, for a BUY taker an ask below it
         */
        boolean beyondNearEdge(final Side taker, final long makerPrice) {
            if (inside(makerPrice)) {
                return false;
            }
            final int sign = BigInteger.valueOf(makerPrice).multiply(TWO).compareTo(doubledReference);
            return taker == Side.SELL ? sign > 0 : sign < 0;
        }
    }

    /** @return the band of an instrument as a command arriving now meets it, given the engine's books now */
    Band bandOnArrival(final int symbol, final OrderEngine books) {
        BigInteger reference = null;
        if (lastTrades[symbol] > 0) {
            reference = BigInteger.valueOf(lastTrades[symbol]).multiply(TWO);
        } else {
            final List<OrderEngine.Level> bids = books.levels(symbol, Side.BUY);
            final List<OrderEngine.Level> asks = books.levels(symbol, Side.SELL);
            if (!bids.isEmpty() && !asks.isEmpty()) {
                reference = BigInteger.valueOf(bids.get(0).price()).add(BigInteger.valueOf(asks.get(0).price()));
            }
        }
        final BigInteger halfWidth = bands[symbol] == 0 || reference == null ? null
                : reference.multiply(BigInteger.valueOf(bands[symbol])).divide(TEN_THOUSAND);
        return new Band(symbol, rules[symbol], reference, halfWidth);
    }

    /** Follows what a command changed: a band, or the last trade of the instruments it traded in. */
    void after(final Command command, final List<RecordedEvent> events) {
        if (command.kind() == Command.Kind.SET_PRICE_BAND) {
            bands[command.symbol()] = (int) command.quantity();
            rules[command.symbol()] = command.bandRule();
        }
        for (final RecordedEvent event : events) {
            if (event instanceof RecordedEvent.Trade t) {
                lastTrades[t.symbol()] = t.price();
            }
        }
    }
}
