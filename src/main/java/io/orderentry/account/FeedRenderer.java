package io.orderentry.account;

/**
 * Renders an update of an account's private feed into the bytes its subscribers are sent (the HTTP edge: a complete
 * WebSocket text frame). Called once per update, whatever the number of subscribers, on the order stage's thread.
 */
@FunctionalInterface
public interface FeedRenderer {

    /** @return the message's bytes; they are shared by every subscriber and must not be changed after */
    byte[] render(String accountId, OrderUpdate update);
}
