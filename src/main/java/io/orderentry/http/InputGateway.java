package io.orderentry.http;

import com.lmax.disruptor.InsufficientCapacityException;
import com.lmax.disruptor.RingBuffer;
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
 * everything else. A refusal that finds the ring full is still answered by the caller but is not audited: it is
 * counted in {@link #refusalsDropped()} and logged at most every {@value #DROP_LOG_SECONDS} seconds.
 */
public final class InputGateway {

    private static final Logger LOG = LoggerFactory.getLogger(InputGateway.class);
    private static final long DROP_LOG_SECONDS = 10;

    private final RingBuffer<OrderCommand> ring;
    private final AtomicLong refusalsDropped = new AtomicLong();
    private final AtomicLong lastDropLogNanos =
            new AtomicLong(System.nanoTime() - TimeUnit.SECONDS.toNanos(DROP_LOG_SECONDS));

    public InputGateway(final RingBuffer<OrderCommand> ring) {
        this.ring = ring;
    }

    /** @return false if the ring is full and nothing was published */
    public boolean tryPlace(final PlaceOrder order, final long requestId, final int replyTo, final String requestTag,
                            final String remoteAddress) {
        final long seq;
        try {
            seq = ring.tryNext();
        } catch (final InsufficientCapacityException full) {
            return false;
        }
        try {
            final OrderCommand command = ring.get(seq);
            command.reset();
            command.type = CommandType.PLACE;
            command.requestId = requestId;
            command.replyTo = replyTo;
            command.requestTag = requestTag;
            command.remoteAddress = remoteAddress;
            command.accountId = order.accountId();
            command.clientOrderId = order.clientOrderId();
            command.symbol = order.instrument().index();
            command.side = order.side();
            command.orderType = order.type();
            command.timeInForce = order.timeInForce();
            command.postOnly = order.postOnly();
            command.price = order.price();
            command.quantity = order.quantity();
        } finally {
            ring.publish(seq);
        }
        return true;
    }

    /** @return false if the ring is full and nothing was published */
    public boolean tryCancel(final long orderId, final long requestId, final int replyTo, final String requestTag,
                             final String remoteAddress) {
        final long seq;
        try {
            seq = ring.tryNext();
        } catch (final InsufficientCapacityException full) {
            return false;
        }
        try {
            final OrderCommand command = ring.get(seq);
            command.reset();
            command.type = CommandType.CANCEL;
            command.requestId = requestId;
            command.replyTo = replyTo;
            command.requestTag = requestTag;
            command.remoteAddress = remoteAddress;
            command.orderId = orderId;
        } finally {
            ring.publish(seq);
        }
        return true;
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
        final long seq;
        try {
            seq = ring.tryNext();
        } catch (final InsufficientCapacityException full) {
            dropped();
            return false;
        }
        try {
            final OrderCommand command = ring.get(seq);
            command.reset();
            command.type = CommandType.REJECTED;
            command.requestTag = requestTag;
            command.remoteAddress = remoteAddress;
            command.accountId = accountId;
            command.clientOrderId = clientOrderId;
            command.orderId = orderId;
            command.refusal = refusal;
        } finally {
            ring.publish(seq);
        }
        return true;
    }

    /** @return edge refusals answered but not audited because the input ring was full, since start */
    public long refusalsDropped() {
        return refusalsDropped.get();
    }

    private void dropped() {
        final long total = refusalsDropped.incrementAndGet();
        final long now = System.nanoTime();
        final long last = lastDropLogNanos.get();
        if (now - last >= TimeUnit.SECONDS.toNanos(DROP_LOG_SECONDS) && lastDropLogNanos.compareAndSet(last, now)) {
            LOG.warn("audit: the input ring is full; {} edge refusal(s) answered but not audited since start", total);
        }
    }

    /** @return free slots in the input ring, for metrics */
    public long remainingCapacity() {
        return ring.remainingCapacity();
    }
}
