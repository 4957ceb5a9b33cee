package io.orderentry.engine;

/**
 * How long an order may stay in the book.
 * <ul>
 *   <li>{@link #GTC}: the remainder rests until filled or cancelled;</li>
 *   <li>{@link #IOC}: fills what it can at once, the rest expires;</li>
 *   <li>{@link #FOK}: fills completely at once, or nothing happens.</li>
 * </ul>
 */
public enum TimeInForce {
    GTC,
    IOC,
    FOK
}
