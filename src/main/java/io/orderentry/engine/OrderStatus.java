package io.orderentry.engine;

/** The state of an order as the engine left it. */
public enum OrderStatus {
    NEW(true),
    PARTIALLY_FILLED(true),
    FILLED(false),
    CANCELED(false),
    EXPIRED(false),
    REJECTED(false);

    private final boolean open;

    OrderStatus(final boolean open) {
        this.open = open;
    }

    /** @return true while the order rests in the book and can still trade or be cancelled */
    public boolean isOpen() {
        return open;
    }
}
