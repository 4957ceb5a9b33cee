package io.orderentry.http.stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.orderentry.account.OrderEvent;
import io.orderentry.account.OrderUpdate;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The hand-over from the order stage to a connection's event loop: in call order, and bounded, so that a loop that
 * falls behind costs the stage nothing: the updates past the bound are dropped and the loop is told once to ask for a
 * fresh snapshot.
 */
class OrderFeedSubscriptionTest {

    private static final int MAX_QUEUED = 8;

    private final Vertx vertx = Vertx.vertx();
    private final Context loop = vertx.getOrCreateContext();
    private final List<String> received = new ArrayList<>();   // on the loop only
    private final OrderFeedSubscription subscription = new OrderFeedSubscription(new OrderFeedSubscription.Receiver() {
        @Override
        public void startsAfter(final OrderFeedSubscription s, final long sequence) {
            received.add("snapshot " + sequence);
        }

        @Override
        public void marked(final OrderFeedSubscription s, final long sequence) {
            received.add("marked " + sequence);
        }

        @Override
        public void updates(final OrderFeedSubscription s, final List<OrderUpdate> updates, final List<byte[]> frames) {
            received.add("updates " + updates.get(0).sequence() + ".." + updates.get(updates.size() - 1).sequence());
        }

        @Override
        public void overrun(final OrderFeedSubscription s) {
            received.add("overrun");
            s.overrunHandled();
        }
    }, null, loop, "acct-1", null, MAX_QUEUED);

    @AfterEach
    void stop() {
        vertx.close().toCompletionStage().toCompletableFuture().join();
    }

    @Test
    void shouldHandOverInCallOrderAndDropWhatPassesTheBoundForOneFreshSnapshot() throws Exception {
        final CountDownLatch release = new CountDownLatch(1);
        loop.runOnContext(ignored -> await(release));      // the loop is busy elsewhere

        subscription.startsAfter(0);
        long sequence = 0;
        for (int batch = 0; batch < 10; batch++) {
            subscription.updates(updates(sequence + 1, 3), frames(3));    // 3 a batch: the third batch passes 8
            sequence += 3;
        }
        release.countDown();
        awaitLoop();

        assertEquals(List.of("snapshot 0", "updates 1..3", "updates 4..6", "overrun"), received,
                "two batches fit, the rest were dropped with one overrun");

        subscription.updates(updates(sequence + 1, 3), frames(3));
        awaitLoop();
        assertEquals("updates 31..33", received.get(received.size() - 1), "taken again once the loop caught up");
    }

    @Test
    void shouldHandNothingOverOnceClosed() throws Exception {
        subscription.close();
        subscription.startsAfter(0);
        subscription.updates(updates(1, 1), frames(1));
        awaitLoop();
        assertTrue(received.isEmpty(), received.toString());
    }

    private void awaitLoop() throws InterruptedException {
        final CountDownLatch done = new CountDownLatch(1);
        loop.runOnContext(ignored -> done.countDown());
        assertTrue(done.await(10, TimeUnit.SECONDS));
    }

    private static void await(final CountDownLatch latch) {
        try {
            latch.await(10, TimeUnit.SECONDS);
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static List<OrderUpdate> updates(final long first, final int count) {
        final List<OrderUpdate> updates = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            updates.add(new OrderUpdate(first + i, OrderEvent.ACCEPTED, null));
        }
        return updates;
    }

    private static List<byte[]> frames(final int count) {
        final List<byte[]> frames = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            frames.add(new byte[0]);
        }
        return frames;
    }
}
