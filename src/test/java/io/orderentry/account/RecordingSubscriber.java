package io.orderentry.account;

import io.orderentry.query.OrderState;
import java.util.ArrayList;
import java.util.List;

/**
 * A {@link FeedSubscriber} that keeps what it is sent, as a client of the private stream would: the last snapshot and
 * every update after it. Tests drive the stage on their own thread, so nothing here hops or synchronizes.
 */
final class RecordingSubscriber implements FeedSubscriber {

    private final String accountId;
    private boolean closed;
    int snapshots;
    long snapshotSequence = -1;
    List<OrderState> snapshot;
    final List<OrderUpdate> updates = new ArrayList<>();
    final List<byte[]> rendered = new ArrayList<>();
    /** Run when the snapshot arrives, e.g. to close the subscription as a racing event loop would. */
    Runnable onSnapshot = () -> { };

    RecordingSubscriber(final String accountId) {
        this.accountId = accountId;
    }

    void close() {
        closed = true;
    }

    @Override
    public String accountId() {
        return accountId;
    }

    @Override
    public boolean closed() {
        return closed;
    }

    @Override
    public void snapshot(final long sequence, final List<OrderState> openOrders) {
        snapshots++;
        snapshotSequence = sequence;
        snapshot = List.copyOf(openOrders);
        updates.clear();
        rendered.clear();
        onSnapshot.run();
    }

    @Override
    public void updates(final List<OrderUpdate> batch, final List<byte[]> frames) {
        if (batch.size() != frames.size()) {
            throw new AssertionError(batch.size() + " updates with " + frames.size() + " renderings");
        }
        updates.addAll(batch);
        rendered.addAll(frames);
    }

    /** @return the sequences of the updates since the snapshot */
    List<Long> sequences() {
        return updates.stream().map(OrderUpdate::sequence).toList();
    }

    /** @return the events of the updates since the snapshot */
    List<OrderEvent> events() {
        return updates.stream().map(OrderUpdate::event).toList();
    }
}
