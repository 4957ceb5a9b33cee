package io.orderentry.engine;

/**
 * How an instrument's price band bounds a MARKET order. A band is set together with its rule (one journaled command,
 * {@link Matcher#setPriceBand(long, int, int, MarketBandRule)}), so that a replay applies to each order the rule it
 * met when it was first matched, also after a build that changed the rule.
 */
public enum MarketBandRule {

    /**
     * The rule of the builds before issue 31, kept only to replay what they journaled: a MARKET order trades with
     * makers up to the band's far edge (a BUY with asks at or below its top, a SELL with bids at or above its bottom),
     * and with makers beyond the near edge too.
     */
    FAR_EDGE_ONLY(1),

    /**
     * A MARKET order trades only at prices inside the band, both edges: it stops at the first maker beyond the far
     * edge, and when the best maker is beyond the near edge (a bid above the band's top for a SELL, an ask below its
     * bottom for a BUY) it trades nothing, touches no order (no self-trade prevention) and expires with
     * PRICE_OUTSIDE_BAND.
     */
    BOTH_EDGES(2);

    /** The rule this build applies to every band it sets. */
    public static final MarketBandRule CURRENT = BOTH_EDGES;

    private static final MarketBandRule[] BY_CODE = {null, FAR_EDGE_ONLY, BOTH_EDGES};

    private final int code;

    MarketBandRule(final int code) {
        this.code = code;
    }

    /** @return the rule's number in the journal and in snapshots */
    public int code() {
        return code;
    }

    /** @return the rule with this number, or null when there is none (a newer build's rule, or corrupted bytes) */
    public static MarketBandRule ofCode(final int code) {
        return code > 0 && code < BY_CODE.length ? BY_CODE[code] : null;
    }
}
