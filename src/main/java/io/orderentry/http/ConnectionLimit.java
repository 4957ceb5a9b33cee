package io.orderentry.http;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A bound on slots (open connections, or stream connections) across all event loops and per {@link ClientAddress}, so
 * that neither abandoned sockets nor one client can take the file descriptors the journal, the audit trail and the
 * spool need, or every slot other clients need. A slot is taken by {@link #tryOpen} and given back by exactly one
 * {@link #closed} with the same address (the caller's one release path, {@link ClientConnection#release}).
 *
 * <p>Memory: an address has an entry only while it holds a slot, so there are never more entries than {@link #max}.
 * Thread safe.
 */
public final class ConnectionLimit {

    /** What {@link #tryOpen} decided. */
    public enum Verdict {
        /** The slot is taken. */
        ADMITTED,
        /** Every slot is taken. */
        FULL,
        /** The address holds its share. */
        ADDRESS_FULL
    }

    private final int max;
    private final int maxPerAddress;
    private final AtomicInteger open = new AtomicInteger();
    private final ConcurrentHashMap<ClientAddress, Integer> byAddress = new ConcurrentHashMap<>();
    private final AtomicLong refused = new AtomicLong();
    private final AtomicLong refusedForAddress = new AtomicLong();

    /**
     * @param max           the most slots taken at once
     * @param maxPerAddress the most slots one address takes at once
     */
    public ConnectionLimit(final int max, final int maxPerAddress) {
        if (max < 1 || maxPerAddress < 1) {
            throw new IllegalArgumentException("max and maxPerAddress must be >= 1, were " + max + ", " + maxPerAddress);
        }
        this.max = max;
        this.maxPerAddress = maxPerAddress;
    }

    /** @return the verdict; on {@link Verdict#ADMITTED} a {@link #closed} with the same address must follow */
    public Verdict tryOpen(final ClientAddress address) {
        if (!takeGlobal()) {
            refused.incrementAndGet();
            return Verdict.FULL;
        }
        final boolean[] fits = new boolean[1];
        byAddress.compute(address, (key, held) -> {
            final int now = held == null ? 0 : held;
            if (now >= maxPerAddress) {
                return held;
            }
            fits[0] = true;
            return now + 1;
        });
        if (!fits[0]) {
            open.decrementAndGet();
            refused.incrementAndGet();
            refusedForAddress.incrementAndGet();
            return Verdict.ADDRESS_FULL;
        }
        return Verdict.ADMITTED;
    }

    /** Gives back a slot {@link #tryOpen} admitted for {@code address}. */
    public void closed(final ClientAddress address) {
        byAddress.computeIfPresent(address, (key, held) -> held <= 1 ? null : held - 1);
        open.decrementAndGet();
    }

    private boolean takeGlobal() {
        while (true) {
            final int now = open.get();
            if (now >= max) {
                return false;
            }
            if (open.compareAndSet(now, now + 1)) {
                return true;
            }
        }
    }

    /** @return slots taken now */
    public int open() {
        return open.get();
    }

    /** @return addresses that hold a slot now */
    public int addresses() {
        return byAddress.size();
    }

    /** @return slots refused since start, for either reason */
    public long refused() {
        return refused.get();
    }

    /** @return slots refused since start because their address held its share */
    public long refusedForAddress() {
        return refusedForAddress.get();
    }

    /** @return the bound */
    public int max() {
        return max;
    }

    /** @return the bound per address */
    public int maxPerAddress() {
        return maxPerAddress;
    }
}
