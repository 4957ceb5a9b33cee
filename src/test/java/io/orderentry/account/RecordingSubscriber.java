package io.orderentry.account;

import io.orderentry.query.OrderState;
import io.orderentry.query.OrderStateView;
import java.util.ArrayList;
import java.util.List;

/**
 * A {@link FeedSubscriber} that builds its snapshot as the stream's event loops do ({@link SnapshotAssembly}, in chunks
 * of {@value #CHUNK}, at once or one chunk per {@link #step} while the test applies events) and keeps it with every
 * update after it, as a client of the private stream would. Tests drive the stage on their own thread, so nothing here hops or synchronizes.
 */
final class RecordingSubscriber implements FeedSubscriber {

    /** Open orders read per step: small, so that tests read an account's orders in several chunks. */
    static final int CHUNK = 2;

    private final String accountId;
    private final OrderStateView view;
    private final AccountFeedStage feeds;
    private boolean closed;
    private SnapshotAssembly assembly;
    /** False: the whole snapshot is read when the stage starts the subscriber; true: one chunk per {@link #step}. */
    boolean stepwise;
    int starts;
    int snapshots;
    long snapshotSequence = -1;
    List<OrderState> snapshot;
    final List<OrderUpdate> updates = new ArrayList<>();
    final List<byte[]> rendered = new ArrayList<>();
    /** Run when the snapshot is complete. */
    Runnable onSnapshot = () -> { };
    /** Run when the stage starts the subscriber, e.g. to close the subscription as a racing event loop would. */
    Runnable onStart = () -> { };

    RecordingSubscriber(final FeedDriver driver, final String accountId) {
        this.accountId = accountId;
        this.view = driver.view;
        this.feeds = driver.feeds;
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
    public void startsAfter(final long sequence) {
        starts++;
        assembly = new SnapshotAssembly(accountId, sequence, 1_000_000);
        updates.clear();
        rendered.clear();
        onStart.run();
        if (!stepwise) {
            while (!step()) {
                // reads every chunk at once: the test drives no events meanwhile
            }
        }
    }

    /**
     * Reads the next chunk of open orders while a snapshot is being built, and asks for the mark after the last.
     *
     * @return true when there was nothing left to read
     */
    boolean step() {
        if (assembly == null || assembly.read()) {
            return true;
        }
        if (assembly.readChunk(view::openOrders, CHUNK)) {
            feeds.mark(this);
        }
        return false;
    }

    @Override
    public void marked(final long sequence) {
        if (assembly == null || !assembly.read()) {
            throw new AssertionError("a mark nobody asked for");
        }
        snapshots++;
        snapshotSequence = sequence;
        snapshot = assembly.complete(sequence);
        assembly = null;
        onSnapshot.run();
    }

    @Override
    public void updates(final List<OrderUpdate> batch, final List<byte[]> frames) {
        if (batch.size() != frames.size()) {
            throw new AssertionError(batch.size() + " updates with " + frames.size() + " renderings");
        }
        if (assembly != null) {
            if (!assembly.updates(batch)) {
                throw new AssertionError("the assembly kept too many updates");
            }
            return;
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
