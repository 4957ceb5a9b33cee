package io.orderentry.http.rest;

import com.lmax.disruptor.InsufficientCapacityException;
import com.lmax.disruptor.RingBuffer;
import io.orderentry.engine.MarketBandRule;
import io.orderentry.engine.RejectReason;
import io.orderentry.http.RefusalBudget;
import io.orderentry.pipeline.CommandType;
import io.orderentry.pipeline.OrderCommand;
import io.orderentry.pipeline.Refusal;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The HTTP edge's only way into the engine: claims a slot of the input ring without ever waiting,
 * fills it, publishes it. A full ring is answered by the caller with 503, never by blocking an event
 * loop. Thread-safe (the ring is multi-producer); called on the event loops.
 *
 * <p>Edge refusals travel the same ring ({@link #tryReject}) so that the audit trail records them in order with
 * everything else, within a budget ({@link RefusalBudget}): at most {@code refusalsPerSecond} in all and a tenth of
 * that per client address (with a burst) are recorded one by one, the rest in one summary record a second
 * ({@link #recordSuppressedRefusals}), and they never take the last half of the ring, which is kept for orders. A
 * refusal that finds that half reached is still answered by the caller but is not audited: it is counted in
 * {@link #refusalsDropped()} and logged at most every {@value #DROP_LOG_SECONDS} seconds.
 */
public final class InputGateway {

    private static final Logger LOG = LoggerFactory.getLogger(InputGateway.class);
    private static final long DROP_LOG_SECONDS = 10;

    private final RingBuffer<OrderCommand> ring;
    /** Publishes under way; with {@link #closed}, lets a stop know when nothing more can enter the ring. */
    private final java.util.concurrent.atomic.AtomicInteger publishing = new java.util.concurrent.atomic.AtomicInteger();
    private volatile boolean closed;
    private final AtomicLong refusalsDropped = new AtomicLong();
    private final AtomicLong lastDropLogNanos;
    /** {@link System#nanoTime()}, or a test's clock: the refusal budget refills by it. */
    private final java.util.function.LongSupplier nanoClock;

    /** Edge refusals recorded one by one per second by default, and the burst above that rate. */
    public static final int DEFAULT_REFUSALS_PER_SECOND = 200;

    private final RefusalBudget refusalBudget;
    private final AtomicLong refusalsSuppressed = new AtomicLong();

    public InputGateway(final RingBuffer<OrderCommand> ring) {
        this(ring, DEFAULT_REFUSALS_PER_SECOND);
    }

    /**
     * @param refusalsPerSecond how many edge refusals a second are recorded one by one in the audit trail in all, a
     *                          tenth of that from one address (each with a burst of five times that); the rest are
     *                          answered as usual and recorded as one summary record a second, so that a flood of bad
     *                          requests can neither take the ring's slots from orders nor fill the audit disk, and one
     *                          flooding address cannot push other addresses' refusals out of the trail
     */
    public InputGateway(final RingBuffer<OrderCommand> ring, final int refusalsPerSecond) {
        this(ring, refusalsPerSecond, System::nanoTime);
    }

    /** @param nanoClock the time the refusal budget refills by, {@link System#nanoTime()} in the service */
    public InputGateway(final RingBuffer<OrderCommand> ring, final int refusalsPerSecond,
                        final java.util.function.LongSupplier nanoClock) {
        if (refusalsPerSecond < 1) {
            throw new IllegalArgumentException("refusalsPerSecond must be >= 1");
        }
        this.ring = ring;
        this.nanoClock = nanoClock;
        this.lastDropLogNanos = new AtomicLong(nanoClock.getAsLong() - TimeUnit.SECONDS.toNanos(DROP_LOG_SECONDS));
        this.refusalBudget = new RefusalBudget(refusalsPerSecond, nanoClock.getAsLong());
    }

    /** @return false if the ring is full and nothing was published */
    public boolean tryPlace(final PlaceOrder order, final long requestId, final int replyTo, final String requestTag,
                            final String remoteAddress) {
        return tryPlace(order, requestId, replyTo, requestTag, remoteAddress, null);
    }

    /**
     * @param keyId the API key the request authenticated with, for the audit trail, or null
     * @return false if the ring is full and nothing was published
     */
    public boolean tryPlace(final PlaceOrder order, final long requestId, final int replyTo, final String requestTag,
                            final String remoteAddress, final String keyId) {
        return tryPlace(order, requestId, replyTo, requestTag, remoteAddress, keyId, 0);
    }

    /**
     * @param keyId   the API key the request authenticated with, for the audit trail, or null
     * @param session the stream connection with cancel on disconnect the order comes through, or 0
     * @return false if the ring is full and nothing was published
     */
    public boolean tryPlace(final PlaceOrder order, final long requestId, final int replyTo, final String requestTag,
                            final String remoteAddress, final String keyId, final long session) {
        final long seq = claim(ring.getBufferSize());
        if (seq < 0) {
            return false;
        }
        try {
            terms(request(seq, CommandType.PLACE, requestId, replyTo, requestTag, remoteAddress, keyId), order)
                    .session = session;
        } finally {
            release(seq);
        }
        return true;
    }

    /**
     * Publishes the orders of a batch together, in their order: one claim of {@code orders.size()} consecutive slots and
     * one publish of them all, so that the journal sees them in one batch and makes them durable with one fsync (the
     * ring's consumers take whatever is published as one batch).
     *
     * @param requestIds the id each order's reply comes back under, in the same order
     * @param keyId      the API key the request authenticated with, for the audit trail, or null
     * @return false if the ring had not room for all of them: then none was published
     */
    public boolean tryPlaceAll(final java.util.List<PlaceOrder> orders, final long[] requestIds, final int replyTo,
                               final String requestTag, final String remoteAddress, final String keyId) {
        final int n = orders.size();
        final long hi = claimAll(n);
        if (hi < 0) {
            return false;
        }
        final long lo = hi - n + 1;
        try {
            for (int k = 0; k < n; k++) {
                terms(request(lo + k, CommandType.PLACE, requestIds[k], replyTo, requestTag, remoteAddress, keyId),
                        orders.get(k));
            }
        } finally {
            releaseAll(lo, hi);
        }
        return true;
    }

    /**
     * Publishes the cancels of a batch together, in their order, as {@link #tryPlaceAll} publishes orders.
     *
     * @param accountIds each order's account (the edge checked the key owns it), for the audit trail
     * @return false if the ring had not room for all of them: then none was published
     */
    public boolean tryCancelEach(final long[] orderIds, final String[] accountIds, final long[] requestIds,
                                 final int count, final int replyTo, final String requestTag,
                                 final String remoteAddress, final String keyId) {
        final long hi = claimAll(count);
        if (hi < 0) {
            return false;
        }
        final long lo = hi - count + 1;
        try {
            for (int k = 0; k < count; k++) {
                final OrderCommand command = request(lo + k, CommandType.CANCEL, requestIds[k], replyTo, requestTag,
                        remoteAddress, keyId);
                command.accountId = accountIds[k];
                command.orderId = orderIds[k];
            }
        } finally {
            releaseAll(lo, hi);
        }
        return true;
    }

    /** @return false if the ring is full and nothing was published */
    public boolean tryCancel(final long orderId, final long requestId, final int replyTo, final String requestTag,
                             final String remoteAddress) {
        return tryCancel(orderId, requestId, replyTo, requestTag, remoteAddress, null, null);
    }

    /**
     * @param keyId     the API key the request authenticated with, for the audit trail, or null
     * @param accountId the key's account (the edge checked it owns the order), for the audit trail, or null
     * @return false if the ring is full and nothing was published
     */
    public boolean tryCancel(final long orderId, final long requestId, final int replyTo, final String requestTag,
                             final String remoteAddress, final String keyId, final String accountId) {
        final long seq = claim(ring.getBufferSize());
        if (seq < 0) {
            return false;
        }
        try {
            final OrderCommand command = request(seq, CommandType.CANCEL, requestId, replyTo, requestTag, remoteAddress,
                    keyId);
            command.accountId = accountId;
            command.orderId = orderId;
        } finally {
            release(seq);
        }
        return true;
    }

    /**
     * Publishes an amend of an order the edge checked the key's account owns.
     *
     * @param price     the new price in price units, 0 to keep it
     * @param quantity  the new total quantity in lots, 0 to keep it
     * @param keyId     the API key the request authenticated with, for the audit trail, or null
     * @param accountId the order's account, for the audit trail
     * @return false if the ring is full and nothing was published
     */
    public boolean tryAmend(final long orderId, final long price, final long quantity, final long requestId,
                            final int replyTo, final String requestTag, final String remoteAddress, final String keyId,
                            final String accountId) {
        final long seq = claim(ring.getBufferSize());
        if (seq < 0) {
            return false;
        }
        try {
            final OrderCommand command = request(seq, CommandType.AMEND, requestId, replyTo, requestTag, remoteAddress,
                    keyId);
            command.accountId = accountId;
            command.orderId = orderId;
            command.price = price;
            command.quantity = quantity;
        } finally {
            release(seq);
        }
        return true;
    }

    /**
     * Publishes a cancel-all of an account's open orders.
     *
     * @param symbol    the instrument's index, or -1 for all
     * @param cause     CANCEL_ALL (a client asked) or CANCEL_ALL_AFTER (its dead man's switch fired)
     * @param replyTo   the waiting verticle, or -1 when nobody waits (the dead man's switch)
     * @param keyId     the API key the request (or the switch's arming) authenticated with, or null
     * @return false if the ring is full and nothing was published
     */
    public boolean tryCancelAll(final String accountId, final int symbol, final RejectReason cause,
                                final long requestId, final int replyTo, final String requestTag,
                                final String remoteAddress, final String keyId) {
        final long seq = claim(ring.getBufferSize());
        if (seq < 0) {
            return false;
        }
        try {
            final OrderCommand command = request(seq, CommandType.CANCEL_ALL, requestId, replyTo, requestTag, remoteAddress,
                    keyId);
            command.accountId = accountId;
            command.symbol = symbol;
            command.cancelAllCause = cause;
        } finally {
            release(seq);
        }
        return true;
    }

    /**
     * Publishes the cancel on disconnect of a stream connection that closed: a cancel-all of the account's resting
     * orders placed through that connection, cause {@link RejectReason#CANCEL_ON_DISCONNECT}; nobody waits for it.
     *
     * @param session    the connection's number, which its orders carry
     * @param requestTag the id of the cancel, for the audit trail
     * @param keyId      the API key the connection logged in with, or null
     * @return false if the ring is full or the gateway closed, and nothing was published
     */
    public boolean tryCancelOnDisconnect(final String accountId, final long session, final String requestTag,
                                         final String remoteAddress, final String keyId) {
        if (accountId == null || session == 0) {
            throw new IllegalArgumentException("a cancel on disconnect needs an account and a session");
        }
        final long seq = claim(ring.getBufferSize());
        if (seq < 0) {
            return false;
        }
        try {
            final OrderCommand command = request(seq, CommandType.CANCEL_ALL, 0, -1, requestTag, remoteAddress, keyId);
            command.accountId = accountId;
            command.symbol = -1;
            command.cancelAllCause = RejectReason.CANCEL_ON_DISCONNECT;
            command.session = session;
        } finally {
            release(seq);
        }
        return true;
    }

    /**
     * Publishes a change of an instrument's price band, under this build's {@link MarketBandRule} (at start, when the
     * configuration or the rule differs from the engine's); nobody waits for it.
     *
     * @return false if the ring is full and nothing was published
     */
    public boolean trySetPriceBand(final int symbol, final int basisPoints) {
        final long seq = claim(ring.getBufferSize());
        if (seq < 0) {
            return false;
        }
        try {
            final OrderCommand command = ring.get(seq);
            command.reset();
            command.type = CommandType.SET_PRICE_BAND;
            command.symbol = symbol;
            command.priceBandBasisPoints = basisPoints;
            command.priceBandRule = MarketBandRule.CURRENT;
        } finally {
            release(seq);
        }
        return true;
    }

    /**
     * Publishes a funding of an account (an admin's request, with balances): a deposit, or a withdrawal with a negative
     * amount.
     *
     * @param asset     the asset's index in the engine's risk rules
     * @param amount    in units of the asset, not 0
     * @param reference the funding's idempotency key
     * @return false if the ring is full and nothing was published
     */
    public boolean tryFund(final String accountId, final int asset, final long amount, final String reference,
                           final long requestId, final int replyTo, final String requestTag,
                           final String remoteAddress, final String keyId) {
        final long seq = claim(ring.getBufferSize());
        if (seq < 0) {
            return false;
        }
        try {
            final OrderCommand command = request(seq, CommandType.FUND, requestId, replyTo, requestTag, remoteAddress,
                    keyId);
            command.accountId = accountId;
            command.asset = asset;
            command.amount = amount;
            command.reference = reference;
        } finally {
            release(seq);
        }
        return true;
    }

    /**
     * Publishes a change of an instrument's fee rates (at start, when the configuration differs from the engine's);
     * nobody waits for it.
     *
     * @return false if the ring is full and nothing was published
     */
    public boolean trySetFees(final int symbol, final int makerFeeRate, final int takerFeeRate) {
        final long seq = claim(ring.getBufferSize());
        if (seq < 0) {
            return false;
        }
        try {
            final OrderCommand command = ring.get(seq);
            command.reset();
            command.type = CommandType.SET_FEES;
            command.symbol = symbol;
            command.makerFeeRate = makerFeeRate;
            command.takerFeeRate = takerFeeRate;
        } finally {
            release(seq);
        }
        return true;
    }

    /** Puts a place's terms into its slot; @return the slot */
    private static OrderCommand terms(final OrderCommand command, final PlaceOrder order) {
        command.accountId = order.accountId();
        command.clientOrderId = order.clientOrderId();
        command.symbol = order.instrument().index();
        command.side = order.side();
        command.orderType = order.type();
        command.timeInForce = order.timeInForce();
        command.postOnly = order.postOnly();
        command.selfTradePrevention = order.selfTradePrevention();
        command.price = order.price();
        command.quantity = order.quantity();
        return command;
    }

    /** @return the slot {@code seq}, cleared and holding the request's type and who waits for it */
    private OrderCommand request(final long seq, final CommandType type, final long requestId, final int replyTo,
                                 final String requestTag, final String remoteAddress, final String keyId) {
        final OrderCommand command = ring.get(seq);
        command.reset();
        command.type = type;
        command.requestId = requestId;
        command.replyTo = replyTo;
        command.requestTag = requestTag;
        command.remoteAddress = remoteAddress;
        command.keyId = keyId;
        command.edgeNanos = System.nanoTime();
        return command;
    }

    /**
     * Publishes an edge refusal for the audit trail; nobody waits for it.
     *
     * @param accountId     the account the request named, or null
     * @param clientOrderId the clientOrderId the request named, or null
     * @param orderId       the order the request named, or 0
     * @return false if the ring is full: the refusal is counted as dropped and not audited
     */
    public boolean tryReject(final Refusal refusal, final String requestTag, final String remoteAddress,
                             final String accountId, final String clientOrderId, final long orderId) {
        return tryReject(refusal, requestTag, remoteAddress, null, accountId, null, clientOrderId, orderId);
    }

    /**
     * Publishes an edge refusal for the audit trail, if its address's and the total budget allow (else it is counted
     * for the next summary record); nobody waits for it.
     *
     * @param keyId            the id of the API key the request presented, or null
     * @param accountId        the account a key vouches for (the key's), or null
     * @param claimedAccountId an account only the request's body named (no key vouches for it), or null
     * @return false if the budget or the ring had no room: the refusal is counted, not audited one by one
     */
    public boolean tryReject(final Refusal refusal, final String requestTag, final String remoteAddress,
                             final String keyId, final String accountId, final String claimedAccountId,
                             final String clientOrderId, final long orderId) {
        if (!refusalBudget.take(remoteAddress, nanoClock.getAsLong())) {
            refusalsSuppressed.incrementAndGet();
            return false;
        }
        return publishRefusal(refusal, requestTag, remoteAddress, keyId, accountId, claimedAccountId, clientOrderId,
                orderId);
    }

    /**
     * Records, as one audit record, the refusals answered but not recorded one by one since the last such record (at
     * most one a second; call it about once a second, on any thread).
     *
     * @return true if a summary was published
     */
    public boolean recordSuppressedRefusals() {
        final RefusalBudget.Suppressed drained = refusalBudget.drainSuppressed();
        if (drained == null) {
            return false;
        }
        final Refusal summary = new Refusal(CommandType.PLACE, 0, "REFUSALS_NOT_RECORDED", drained.count()
                + " refused request(s) in the last " + RefusalBudget.secondsSince(drained.since(), nanoClock.getAsLong())
                + " s from " + drained.addresses() + " address(es) were answered but not recorded one by one (over "
                + refusalBudget.perAddressPerSecond() + "/s from one address or " + refusalBudget.perSecond()
                + "/s in all)" + (drained.topAddress() == null ? "" : "; most from "
                + (drained.topAddress().isEmpty() ? "an unknown address" : drained.topAddress()) + ": "
                + drained.topCount()), null);
        if (!publishRefusal(summary, null, null, null, null, null, null, 0)) {
            refusalBudget.restore(drained);   // the next call tries again
            return false;
        }
        return true;
    }

    /**
     * Publishes a {@link CommandType#TICK}, for the stages that retry after a failure; call it about once a second.
     * Like a refusal, it never takes the half of the ring kept for orders.
     *
     * @return false if the ring is half full or the gateway closed: the next tick comes soon enough
     */
    public boolean tick() {
        final long seq = claim(ring.getBufferSize() / 2);
        if (seq < 0) {
            return false;
        }
        try {
            final OrderCommand command = ring.get(seq);
            command.reset();
            command.type = CommandType.TICK;
        } finally {
            release(seq);
        }
        return true;
    }

    /** @return edge refusals answered but recorded only in a summary record (over the budget), since start */
    public long refusalsSuppressed() {
        return refusalsSuppressed.get();
    }

    private boolean publishRefusal(final Refusal refusal, final String requestTag, final String remoteAddress,
                                   final String keyId, final String accountId, final String claimedAccountId,
                                   final String clientOrderId, final long orderId) {
        final long seq = claim(ring.getBufferSize() / 2);   // the other half of the ring is kept for orders
        if (seq < 0) {
            if (!closed) {
                dropped();
            }
            return false;
        }
        try {
            final OrderCommand command = ring.get(seq);
            command.reset();
            command.type = CommandType.REJECTED;
            command.requestTag = requestTag;
            command.remoteAddress = remoteAddress;
            command.keyId = keyId;
            command.accountId = accountId;
            command.claimedAccountId = claimedAccountId;
            command.clientOrderId = clientOrderId;
            command.orderId = orderId;
            command.refusal = refusal;
        } finally {
            release(seq);
        }
        return true;
    }

    /**
     * Claims a slot while the gateway is open; on success the publish counts as under way until {@link #release}, so
     * that {@link #close} waits for it.
     *
     * @param slotsFree the free slots the ring must have for this publish (its size: any free slot will do)
     * @return the slot's sequence, or -1 when the gateway is closed or the ring has too few free slots
     */
    private long claim(final int slotsFree) {
        publishing.incrementAndGet();
        if (!closed && (slotsFree >= ring.getBufferSize() || ring.remainingCapacity() >= slotsFree)) {
            try {
                return ring.tryNext();
            } catch (final InsufficientCapacityException full) {
                // answered by the caller as overloaded
            }
        }
        publishing.decrementAndGet();
        return -1;
    }

    /**
     * Claims {@code n} consecutive slots while the gateway is open, as {@link #claim} claims one.
     *
     * @return the highest of the slots' sequences (the first is {@code n - 1} below it), or -1 when the gateway is
     *     closed or the ring has fewer than {@code n} free slots
     */
    private long claimAll(final int n) {
        if (n < 1 || n > ring.getBufferSize()) {
            throw new IllegalArgumentException("cannot claim " + n + " slots of a ring of " + ring.getBufferSize());
        }
        publishing.incrementAndGet();
        if (!closed) {
            try {
                return ring.tryNext(n);
            } catch (final InsufficientCapacityException full) {
                // answered by the caller as overloaded
            }
        }
        publishing.decrementAndGet();
        return -1;
    }

    /** Publishes the slots taken by {@link #claimAll} and ends the publish. */
    private void releaseAll(final long lo, final long hi) {
        ring.publish(lo, hi);
        publishing.decrementAndGet();
    }

    /** Publishes a slot taken by {@link #claim} and ends the publish. */
    private void release(final long seq) {
        ring.publish(seq);
        publishing.decrementAndGet();
    }

    /**
     * Refuses every publish from now on and waits for those already under way: once it returns, nothing more enters
     * the ring, so a stop that drains the ring after it leaves no request unanswered. Any thread; called by the stop.
     */
    public void close() {
        closed = true;
        while (publishing.get() != 0) {
            Thread.onSpinWait();
        }
    }

    /** @return true once {@link #close} was called: a refused publish then means "stopping", not "full" */
    public boolean closed() {
        return closed;
    }

    /** @return edge refusals answered but not audited because the input ring was full, since start */
    public long refusalsDropped() {
        return refusalsDropped.get();
    }

    private void dropped() {
        final long total = refusalsDropped.incrementAndGet();
        final long now = nanoClock.getAsLong();
        final long last = lastDropLogNanos.get();
        if (now - last >= TimeUnit.SECONDS.toNanos(DROP_LOG_SECONDS) && lastDropLogNanos.compareAndSet(last, now)) {
            LOG.warn("audit: the input ring is half full; {} edge refusal(s) answered but not audited since start", total);
        }
    }

    /** @return free slots in the input ring, for metrics */
    public long remainingCapacity() {
        return ring.remainingCapacity();
    }
}
