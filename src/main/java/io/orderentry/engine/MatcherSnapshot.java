package io.orderentry.engine;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The {@link Matcher}'s snapshot format: its complete state written out between commands and read back into a new
 * matcher, which then executes later commands exactly as the written one would. The format is described at
 * {@link #write}; the price bands' part is {@link PriceBands#writeSnapshot}'s and the dedup window's
 * {@link DedupWindow#writeSnapshot}'s. It reads and fills the matcher's books, ids and indexes directly, which are
 * package-private for it alone.
 *
 * <p>Threads: the thread that owns the matcher, between commands.
 */
final class MatcherSnapshot {

    private static final int SNAPSHOT_VERSION = 5;
    private static final SelfTradePrevention[] STP_MODES = SelfTradePrevention.values();

    private MatcherSnapshot() {
    }

    /**
     * Writes the engine's complete state: the ids and the event sequence, every resting order in price-time
     * priority, each instrument's last trade price and the dedup window, oldest entry first. Called on the thread
     * that owns the matcher, between commands. Format, version 4: {@code int version, int symbols, long lastOrderId,
     * long lastTradeId, long lastEventSequence}; per symbol, bids then asks: {@code int levels}, per level worst first
     * {@code long price, int orders}, per order oldest first {@code long orderId, UTF accountId, long quantity,
     * long filled, byte flags, long session} (flags: bit 0 postOnly, bits 1-2 the self-trade prevention mode; session:
     * the stream connection it was placed through with cancel on disconnect, 0 for none); per symbol {@code long
     * lastTradePrice} (0: none), {@code int priceBandBasisPoints} and {@code byte} its {@link MarketBandRule#code()};
     * then the dedup window ({@link DedupWindow#writeSnapshot}); then {@code boolean balances} and, when true, the
     * balances ({@link Funds#writeSnapshot}). Version 4 had no balances (it restores only into a matcher without them);
     * version 3 had no session (its orders restore with none);
     * version 2 had no rule byte (its bands restore with
     * {@link MarketBandRule#FAR_EDGE_ONLY}, the rule of the builds that wrote it); version 1 had no flags byte, last
     * trade prices or bands.
     */
    static void write(final Matcher matcher, final DataOutput out) throws IOException {
        out.writeInt(SNAPSHOT_VERSION);
        out.writeInt(matcher.books.length);
        out.writeLong(matcher.lastOrderId);
        out.writeLong(matcher.lastTradeId);
        out.writeLong(matcher.lastEventSequence);
        for (final OrderBook book : matcher.books) {
            for (final Side side : Side.values()) {
                final BookSide levels = book.side(side);
                final int count = levels.levelCount();
                out.writeInt(count);
                for (int i = count - 1; i >= 0; i--) {
                    final PriceLevel level = levels.levelFromBest(i);
                    out.writeLong(level.price);
                    out.writeInt(level.orderCount);
                    for (Order order = level.head; order != null; order = order.next) {
                        out.writeLong(order.orderId);
                        out.writeUTF(order.accountId);
                        out.writeLong(order.quantity);
                        out.writeLong(order.filled);
                        out.writeByte((order.postOnly ? 1 : 0) | order.stp.ordinal() << 1);
                        out.writeLong(order.session);
                    }
                }
            }
        }
        matcher.bands.writeSnapshot(out);
        matcher.dedup.writeSnapshot(out);
        out.writeBoolean(matcher.funds != null);
        if (matcher.funds != null) {
            matcher.funds.writeSnapshot(out);
        }
    }

    /**
     * Restores a state written by {@link #write} (version 5, 4, 3 or 2, or version 1: its orders then have no postOnly
     * flag and no self-trade prevention, no instrument has a last trade until its next one, and the bands are the
     * matcher's, which for the service are none: bands did not exist when a version 1 snapshot was written) into
     * {@code matcher}, which must be new (no command executed). A snapshot of fewer instruments than the matcher has
     * is fine: the new ones start empty. Emits no event.
     *
     * @throws IOException on a malformed or truncated snapshot, one of more instruments than configured, or one that
     *                     breaks this matcher's limits (they are checked against the journal's before this is called)
     */
    static void restore(final Matcher matcher, final DataInput in) throws IOException {
        if (matcher.lastOrderId != 0 || matcher.lastEventSequence != 0 || matcher.restingOrders.size() != 0) {
            throw new IllegalStateException("restoreSnapshot needs a new matcher");
        }
        final int version = in.readInt();
        if (version < 1 || version > SNAPSHOT_VERSION) {
            throw new IOException("engine snapshot version " + version + " is not supported (expected 1 to "
                    + SNAPSHOT_VERSION + ")");
        }
        final int symbols = in.readInt();
        if (symbols < 0 || symbols > matcher.books.length) {
            throw new IOException("engine snapshot holds " + symbols + " instruments, " + matcher.books.length
                    + " are configured");
        }
        matcher.lastOrderId = nonNegative(in.readLong(), "lastOrderId");
        matcher.lastTradeId = nonNegative(in.readLong(), "lastTradeId");
        matcher.lastEventSequence = nonNegative(in.readLong(), "lastEventSequence");
        final Map<String, String> accounts = new HashMap<>();
        final List<Order> restored = new ArrayList<>();
        for (int symbol = 0; symbol < symbols; symbol++) {
            for (final Side side : Side.values()) {
                final BookSide own = matcher.books[symbol].side(side);
                final int levels = in.readInt();
                if (levels < 0 || levels > matcher.limits.maxPriceLevelsPerSide()) {
                    throw new IOException("engine snapshot: " + levels + " levels on a side of instrument " + symbol
                            + " (limit " + matcher.limits.maxPriceLevelsPerSide() + ")");
                }
                long previousKey = Long.MIN_VALUE;
                for (int l = 0; l < levels; l++) {
                    final long price = in.readLong();
                    final int orders = in.readInt();
                    if (price <= 0 || price >= PlaceArguments.MAX_PRICE || orders <= 0
                            || own.keyOf(price) <= previousKey) {
                        throw new IOException("engine snapshot: bad level " + price + " x " + orders + " order(s)");
                    }
                    previousKey = own.keyOf(price);
                    for (int o = 0; o < orders; o++) {
                        final long orderId = in.readLong();
                        final String accountId = accounts.computeIfAbsent(in.readUTF(), a -> a);
                        final long quantity = in.readLong();
                        final long filled = in.readLong();
                        final int flags = version == 1 ? 0 : in.readByte();
                        final long session = version >= 4 ? in.readLong() : 0;
                        if (orderId <= 0 || orderId > matcher.lastOrderId || filled < 0 || filled >= quantity
                                || matcher.restingOrders.get(orderId) != null || (flags & ~7) != 0
                                || (flags >> 1) >= STP_MODES.length) {
                            throw new IOException("engine snapshot: bad resting order " + orderId);
                        }
                        if (matcher.restingOrders.size() >= matcher.limits.maxRestingOrders()) {
                            throw new IOException("engine snapshot holds more resting orders than the limit "
                                    + matcher.limits.maxRestingOrders());
                        }
                        restored.add(matcher.rest(own, orderId, accountId, price, quantity, filled, (flags & 1) != 0,
                                STP_MODES[flags >> 1], session));
                    }
                }
            }
        }
        restored.sort(Comparator.comparingLong(order -> order.orderId));
        for (final Order order : restored) {
            matcher.accountOrders.add(order);   // in id order, as they rested
        }
        if (version >= 2) {
            matcher.bands.restoreSnapshot(in, symbols, version >= 3);
        }
        matcher.dedup.restoreSnapshot(in);
        final boolean balances = version >= 5 && in.readBoolean();
        if (balances != (matcher.funds != null)) {
            throw new IOException(balances ? "engine snapshot holds balances; this engine runs without them"
                    : "engine snapshot holds no balances; this engine holds them (ORDERS_RISK=balances)");
        }
        if (balances) {
            matcher.funds.restoreSnapshot(in, symbols, accounts);
            for (final Order order : restored) {
                order.balanceRow = matcher.funds.row(order.accountId);
            }
            matcher.funds.checkHeld(restored);
        }
    }

    private static long nonNegative(final long value, final String what) throws IOException {
        if (value < 0) {
            throw new IOException("engine snapshot: negative " + what + " " + value);
        }
        return value;
    }
}
