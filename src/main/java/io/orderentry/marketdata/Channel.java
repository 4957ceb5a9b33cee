package io.orderentry.marketdata;

/** A market data stream a WebSocket client can subscribe to, per symbol. */
public enum Channel {
    /** L2 book: a full snapshot, then changed levels. */
    BOOK("book"),
    /** Executions: recent trades, then new ones. */
    TRADES("trades"),
    /** Best bid and ask, last trade and 24 h volume, sent whole on every change. */
    TICKER("ticker");

    /** How many channels there are; per-symbol arrays are sized by it. */
    public static final int COUNT = values().length;
    private static final Channel[] VALUES = values();

    private final String wireName;

    Channel(final String wireName) {
        this.wireName = wireName;
    }

    /** @return the name clients send and receive, e.g. {@code book} */
    public String wireName() {
        return wireName;
    }

    /** @return the channel with that wire name, or null if there is none */
    public static Channel byWireName(final String name) {
        for (final Channel channel : VALUES) {
            if (channel.wireName.equals(name)) {
                return channel;
            }
        }
        return null;
    }

    /** @return the channel with that ordinal */
    public static Channel of(final int ordinal) {
        return VALUES[ordinal];
    }
}
