package io.orderentry.engine;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.Arrays;

/**
 * Remembers the most recent {@code window} orders that carried a clientOrderId, so that a retried
 * place command is recognised by its (accountId, clientOrderId) pair even after the original order
 * left the book. The oldest entry is forgotten first.
 *
 * <p>Entries live in ring arrays (the order id, the order's fields, the account, the clientOrderId's bytes); an
 * open-addressing
 * table of {@code long} slots points into the ring, each slot holding the entry's hash beside its ring
 * index, so that probing and deletion never leave the table (with a window of a million entries every
 * visit to the ring would be a cache miss). Only on a full hash match are the stored strings compared
 * with {@code equals}. The ring grows by doubling until it holds {@code window} entries and then
 * wraps, so memory is bounded and, once full, nothing is allocated per order.
 *
 * <p>Not thread safe: used only by the matcher thread.
 */
final class DedupWindow {

    private static final int INITIAL_CAPACITY = 1024;
    private static final int NONE = -1;
    private static final Side[] SIDES = Side.values();
    private static final OrderType[] ORDER_TYPES = OrderType.values();
    private static final TimeInForce[] TIME_IN_FORCES = TimeInForce.values();
    private static final SelfTradePrevention[] STP_MODES = SelfTradePrevention.values();
    static final int ID_WIDTH = 64;
    private static final byte OVERSIZED = -1;
    /** The ids' bytes are kept in parts of 4,096 entries (256 KiB): ordinary arrays, never humongous ones. */
    private static final int PART_SHIFT = 12;
    private static final int PART_MASK = (1 << PART_SHIFT) - 1;

    private final int window;
    private long[] orderIds;
    private long[] prices;
    private long[] quantities;
    private int[] symbols;
    private byte[] attributes;
    private int[] hashes;
    private String[] accountIds;
    /**
     * The clientOrderIds, {@value #ID_WIDTH} bytes an entry, with their lengths: no String per order stays alive
     * (issue 33). The API accepts ids of 1-64 ASCII characters; one that does not fit is kept in {@link #oversized}.
     */
    private byte[][] clientOrderIds;
    private byte[] clientOrderIdLengths;
    private String[] oversized;
    private int size;
    private int oldest;
    /** Empty slots are 0; an occupied slot is {@code hash << 32 | (entry + 1)}. */
    private long[] table;
    private int mask;

    /** Largest supported window: keeps the slot table's size within an {@code int}. */
    static final int MAX_WINDOW = 1 << 28;

    /** @param window how many entries to keep, in [1, {@link #MAX_WINDOW}] */
    DedupWindow(final int window) {
        if (window <= 0 || window > MAX_WINDOW) {
            throw new IllegalArgumentException("window must be in [1, " + MAX_WINDOW + "]: " + window);
        }
        this.window = window;
        allocateRing(Math.min(window, INITIAL_CAPACITY));
        allocateTable();
    }

    /** @return the hash of a pair, to be passed to {@link #find} and {@link #remember} */
    static int hash(final String accountId, final String clientOrderId) {
        final int h = (accountId.hashCode() * 31 + clientOrderId.hashCode()) * 0x9E3779B9;
        return h ^ (h >>> 16);
    }

    /** @return the order ids of the remembered pairs, oldest first */
    long[] orderIdsOldestFirst() {
        final long[] ids = new long[size];
        for (int k = 0; k < size; k++) {
            ids[k] = orderIds[(oldest + k) % size];   // oldest stays 0 until the ring wraps
        }
        return ids;
    }

    /** @return how many pairs are remembered, at most {@code window} */
    int size() {
        return size;
    }

    /** @return the entry remembering this pair, or -1 when the pair is not remembered */
    int find(final int hash, final String accountId, final String clientOrderId) {
        for (int i = hash & mask; table[i] != 0; i = (i + 1) & mask) {
            final long slot = table[i];
            if ((int) (slot >>> 32) == hash) {
                final int entry = (int) slot - 1;
                if (sameClientOrderId(entry, clientOrderId) && accountId.equals(accountIds[entry])) {
                    return entry;
                }
            }
        }
        return NONE;
    }

    /** @return the order id of an entry returned by {@link #find} */
    long orderId(final int entry) {
        return orderIds[entry];
    }

    /** @return true when an entry returned by {@link #find} was placed with exactly these fields */
    boolean sameOrder(final int entry, final int symbol, final Side side, final OrderType type,
                      final TimeInForce timeInForce, final boolean postOnly, final SelfTradePrevention stp,
                      final long price, final long quantity) {
        return symbols[entry] == symbol && prices[entry] == price && quantities[entry] == quantity
                && attributes[entry] == attributes(side, type, timeInForce, postOnly, stp);
    }

    /**
     * Remembers a pair that {@link #find} did not find, forgetting the oldest pair when the window is
     * full. The caller guarantees the pair is not already remembered.
     */
    void remember(final int hash, final long orderId, final String accountId, final String clientOrderId,
                  final int symbol, final Side side, final OrderType type, final TimeInForce timeInForce,
                  final boolean postOnly, final SelfTradePrevention stp, final long price, final long quantity) {
        final int entry;
        if (size < orderIds.length) {
            entry = size++;
        } else if (size < window) {
            growRing();
            entry = size++;
        } else {
            entry = oldest;
            forget(entry);
            oldest = entry + 1 == size ? 0 : entry + 1;
        }
        orderIds[entry] = orderId;
        prices[entry] = price;
        quantities[entry] = quantity;
        symbols[entry] = symbol;
        attributes[entry] = attributes(side, type, timeInForce, postOnly, stp);
        hashes[entry] = hash;
        accountIds[entry] = accountId;
        storeClientOrderId(entry, clientOrderId);
        insert(entry);
    }

    /**
     * Writes the remembered entries, oldest first: {@code int count}, then per entry {@code long orderId, long price,
     * long quantity, int symbol, byte attributes, UTF accountId, UTF clientOrderId}; the attributes byte is laid out as
     * {@link #attributes} says.
     */
    void writeSnapshot(final DataOutput out) throws IOException {
        out.writeInt(size);
        for (int i = 0; i < size; i++) {
            final int entry = (oldest + i) % size;   // oldest stays 0 until the ring wraps
            out.writeLong(orderIds[entry]);
            out.writeLong(prices[entry]);
            out.writeLong(quantities[entry]);
            out.writeInt(symbols[entry]);
            out.writeByte(attributes[entry]);
            out.writeUTF(accountIds[entry]);
            out.writeUTF(clientOrderId(entry));
        }
    }

    /**
     * Remembers the entries of {@link #writeSnapshot}, oldest first, into this empty window; when this window is
     * smaller, the oldest are forgotten as they would have been.
     */
    void restoreSnapshot(final DataInput in) throws IOException {
        if (size != 0) {
            throw new IllegalStateException("restoreSnapshot needs an empty window");
        }
        final int count = in.readInt();
        if (count < 0 || count > MAX_WINDOW) {
            throw new IOException("engine snapshot: dedup window of " + count + " entries");
        }
        if (count > orderIds.length) {
            // sized once for what is coming (up to a million entries a read can vouch for; it grows past that as
            // entries actually arrive), instead of doubling and rehashing a dozen times on the way
            allocateRing(Math.min(window, Math.min(count, 1 << 20)));
            allocateTable();
        }
        for (int i = 0; i < count; i++) {
            final long orderId = in.readLong();
            final long price = in.readLong();
            final long quantity = in.readLong();
            final int symbol = in.readInt();
            final byte attributes = in.readByte();
            final String accountId = in.readUTF();
            final String clientOrderId = in.readUTF();
            if ((attributes & ~0x7F) != 0 || (attributes >> 2 & 3) >= TIME_IN_FORCES.length) {
                throw new IOException("engine snapshot: bad dedup attributes " + attributes + " for order " + orderId);
            }
            final int hash = hash(accountId, clientOrderId);
            if (find(hash, accountId, clientOrderId) >= 0) {
                throw new IOException("engine snapshot: dedup pair remembered twice for order " + orderId);
            }
            remember(hash, orderId, accountId, clientOrderId, symbol, SIDES[attributes & 1],
                    ORDER_TYPES[attributes >> 1 & 1], TIME_IN_FORCES[attributes >> 2 & 3], (attributes & 1 << 4) != 0,
                    STP_MODES[attributes >> 5 & 3], price, quantity);
        }
    }

    /** Bit 0 side, 1 type, 2-3 time in force, 4 postOnly, 5-6 self-trade prevention (0, NONE, in snapshots before it). */
    private static byte attributes(final Side side, final OrderType type, final TimeInForce timeInForce,
                                   final boolean postOnly, final SelfTradePrevention stp) {
        return (byte) (side.ordinal() | type.ordinal() << 1 | timeInForce.ordinal() << 2 | (postOnly ? 1 << 4 : 0)
                | stp.ordinal() << 5);
    }

    private boolean sameClientOrderId(final int entry, final String clientOrderId) {
        final int length = clientOrderIdLengths[entry];
        if (length == OVERSIZED) {
            return clientOrderId.equals(oversized[entry]);
        }
        if (clientOrderId.length() != length) {
            return false;
        }
        final byte[] part = clientOrderIds[entry >>> PART_SHIFT];
        final int base = (entry & PART_MASK) * ID_WIDTH;
        for (int k = 0; k < length; k++) {
            if (clientOrderId.charAt(k) != part[base + k]) {
                return false;
            }
        }
        return true;
    }

    private void storeClientOrderId(final int entry, final String clientOrderId) {
        if (oversized != null) {
            oversized[entry] = null;
        }
        final int n = AsciiCopy.copy(clientOrderId, clientOrderIds[entry >>> PART_SHIFT],
                (entry & PART_MASK) * ID_WIDTH, ID_WIDTH);
        if (n >= 0) {
            clientOrderIdLengths[entry] = (byte) n;
            return;
        }
        if (oversized == null) {
            oversized = new String[clientOrderIdLengths.length];
        }
        oversized[entry] = clientOrderId;
        clientOrderIdLengths[entry] = OVERSIZED;
    }

    /** @return an entry's clientOrderId as a new String (snapshots only) */
    private String clientOrderId(final int entry) {
        final int length = clientOrderIdLengths[entry];
        return length == OVERSIZED ? oversized[entry]
                : new String(clientOrderIds[entry >>> PART_SHIFT], (entry & PART_MASK) * ID_WIDTH, length,
                        java.nio.charset.StandardCharsets.ISO_8859_1);
    }

    private void insert(final int entry) {
        final int hash = hashes[entry];
        int i = hash & mask;
        while (table[i] != 0) {
            i = (i + 1) & mask;
        }
        table[i] = (long) hash << 32 | (entry + 1);
    }

    /** Removes an entry's slot from the table, closing the hole by backward shifting. */
    private void forget(final int entry) {
        final long slot = (long) hashes[entry] << 32 | (entry + 1);
        int hole = hashes[entry] & mask;
        while (table[hole] != slot) {
            hole = (hole + 1) & mask;
        }
        for (int i = (hole + 1) & mask; table[i] != 0; i = (i + 1) & mask) {
            final int home = (int) (table[i] >>> 32) & mask;
            if (((i - home) & mask) >= ((i - hole) & mask)) {
                table[hole] = table[i];
                hole = i;
            }
        }
        table[hole] = 0;
    }

    /** Doubles the ring (capped at the window); only happens before the ring first wraps. */
    private void growRing() {
        final int capacity = (int) Math.min((long) orderIds.length * 2, window);
        orderIds = Arrays.copyOf(orderIds, capacity);
        prices = Arrays.copyOf(prices, capacity);
        quantities = Arrays.copyOf(quantities, capacity);
        symbols = Arrays.copyOf(symbols, capacity);
        attributes = Arrays.copyOf(attributes, capacity);
        hashes = Arrays.copyOf(hashes, capacity);
        accountIds = Arrays.copyOf(accountIds, capacity);
        clientOrderIds = idParts(clientOrderIds, capacity);
        clientOrderIdLengths = Arrays.copyOf(clientOrderIdLengths, capacity);
        if (oversized != null) {
            oversized = Arrays.copyOf(oversized, capacity);
        }
        allocateTable();
        for (int entry = 0; entry < size; entry++) {
            insert(entry);
        }
    }

    private void allocateRing(final int capacity) {
        orderIds = new long[capacity];
        prices = new long[capacity];
        quantities = new long[capacity];
        symbols = new int[capacity];
        attributes = new byte[capacity];
        hashes = new int[capacity];
        accountIds = new String[capacity];
        clientOrderIds = idParts(new byte[0][], capacity);
        clientOrderIdLengths = new byte[capacity];
        oversized = null;
    }

    /** @return {@code parts} with parts added (the old ones kept) until they hold {@code capacity} ids */
    private static byte[][] idParts(final byte[][] parts, final int capacity) {
        final int count = (capacity + PART_MASK) >>> PART_SHIFT;
        final byte[][] grown = Arrays.copyOf(parts, count);
        for (int p = parts.length; p < count; p++) {
            grown[p] = new byte[(PART_MASK + 1) * ID_WIDTH];
        }
        return grown;
    }

    /** A table of at least twice the ring's capacity, a power of two: at most half full. */
    private void allocateTable() {
        final int slots = Integer.highestOneBit(orderIds.length * 4 - 1);
        table = new long[Math.max(8, slots)];
        mask = table.length - 1;
    }
}
