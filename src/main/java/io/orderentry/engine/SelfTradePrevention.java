package io.orderentry.engine;

/**
 * What happens when an incoming order would trade with a resting order of the same account. The incoming (taker)
 * order's mode decides; see the {@link Matcher} class documentation for the exact rules.
 */
public enum SelfTradePrevention {
    /** They trade, as orders of different accounts would. */
    NONE,
    /** The incoming order's remainder expires at that point (EXPIRED, SELF_TRADE_PREVENTED); the resting order stays. */
    EXPIRE_TAKER,
    /** The resting order is canceled (CANCELED, SELF_TRADE_PREVENTED) and matching continues with the next one. */
    EXPIRE_MAKER,
    /** Both: the resting order is canceled and the incoming order's remainder expires. */
    EXPIRE_BOTH
}
