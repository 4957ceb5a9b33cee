package io.orderentry.http;

import com.lmax.disruptor.InsufficientCapacityException;
import com.lmax.disruptor.RingBuffer;
import io.orderentry.pipeline.CommandType;
import io.orderentry.pipeline.OrderCommand;

/**
 * The HTTP edge's only way into the engine: claims a slot of the input ring without ever waiting,
 * fills it, publishes it. A full ring is answered by the caller with 503, never by blocking an event
 * loop. Thread-safe (the ring is multi-producer); called on the event loops.
 */
public final class InputGateway {

    private final RingBuffer<OrderCommand> ring;

    public InputGateway(final RingBuffer<OrderCommand> ring) {
        this.ring = ring;
    }

    /** @return false if the ring is full and nothing was published */
    public boolean tryPlace(final PlaceOrder order, final long requestId, final int replyTo) {
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
    public boolean tryCancel(final long orderId, final long requestId, final int replyTo) {
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
            command.orderId = orderId;
        } finally {
            ring.publish(seq);
        }
        return true;
    }

    /** @return free slots in the input ring, for metrics */
    public long remainingCapacity() {
        return ring.remainingCapacity();
    }
}
