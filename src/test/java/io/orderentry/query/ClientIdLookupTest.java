package io.orderentry.query;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.orderentry.engine.EngineConfig;
import io.orderentry.engine.Side;
import io.orderentry.pipeline.EngineEvent;
import io.orderentry.testing.TestEngine;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * The order view finds an order by its account and clientOrderId ({@code /api/v1/orders/client:{id}}) for as long as
 * it holds the order, never another account's, and across a snapshot.
 */
class ClientIdLookupTest {

    @Test
    void shouldFindAnOrderByItsAccountAndClientOrderId() {
        final TestEngine engine = new TestEngine(1, EngineConfig.DEFAULTS);
        final long a = engine.limitWithClientOrderId("acct-1", "c-42", Side.BUY, 1_000, 5);
        final long b = engine.limitWithClientOrderId("acct-2", "c-42", Side.BUY, 1_000, 5);
        final long c = engine.limitWithClientOrderId("acct-1", "c-43", Side.SELL, 2_000, 5);
        final OrderStateView view = viewOf(engine.events(), 1_000);

        assertEquals(a, view.orderIdOf("acct-1", "c-42"));
        assertEquals(b, view.orderIdOf("acct-2", "c-42"), "the same clientOrderId of another account is its own");
        assertEquals(c, view.orderIdOf("acct-1", "c-43"));
        assertEquals(0, view.orderIdOf("acct-3", "c-42"), "an account that never used it finds nothing");
        assertEquals(0, view.orderIdOf("acct-1", "c-4"), "a prefix is not the id");
        assertEquals(0, view.orderIdOf("acct-1", "c-420"));
    }

    @Test
    void shouldFindAFinalOrderWhileTheViewHoldsItAndNothingOnceItIsForgotten() {
        final TestEngine engine = new TestEngine(1, EngineConfig.DEFAULTS);
        final long first = engine.limitWithClientOrderId("acct-1", "gone", Side.BUY, 1_000, 5);
        engine.cancel(first);
        final OrderStateView view = viewOf(engine.events(), 2);
        assertEquals(first, view.orderIdOf("acct-1", "gone"), "a canceled order is still held, and found");

        final int seen = engine.events().size();
        for (int n = 0; n < 3; n++) {             // three more final orders push the first out of a view keeping two
            engine.cancel(engine.limitWithClientOrderId("acct-1", "later-" + n, Side.BUY, 1_000, 5));
        }
        apply(view, engine.events(), seen, engine.events().size());
        assertEquals(0, view.orderIdOf("acct-1", "gone"), "forgotten with its order");
        assertEquals(null, view.get(first));
        assertTrue(view.orderIdOf("acct-1", "later-2") > 0);
    }

    @Test
    void shouldAnswerTheNewerOrderWhenAForgottenPairIsReused() {
        // a dedup window of one: the engine forgets the first "reused" when the next clientOrderId arrives, and a
        // view keeping ten final orders still holds the first when the pair is placed again
        final TestEngine engine = new TestEngine(1, new EngineConfig(1_000, 1_000, 1_000, 1));
        final long first = engine.limitWithClientOrderId("acct-1", "reused", Side.BUY, 1_000, 5);
        engine.cancel(first);
        engine.limitWithClientOrderId("acct-1", "other", Side.BUY, 1_000, 5);
        final long second = engine.limitWithClientOrderId("acct-1", "reused", Side.BUY, 1_000, 5);
        assertTrue(second > first, "the engine placed it again as a new order");
        final OrderStateView view = viewOf(engine.events(), 10);
        assertEquals(first, view.get(first).orderId(), "the view still holds the first");
        assertEquals(second, view.orderIdOf("acct-1", "reused"));
    }

    @Test
    void shouldFindEveryOrderAfterASnapshotRestoreAsBefore() throws IOException {
        final TestEngine engine = new TestEngine(1, EngineConfig.DEFAULTS);
        final Map<String, Long> placed = new HashMap<>();
        for (int n = 0; n < 2_000; n++) {
            final String id = "id." + n + ":x";
            final long orderId = engine.limitWithClientOrderId("acct-" + (n % 7), id, n % 2 == 0 ? Side.BUY
                    : Side.SELL, n % 2 == 0 ? 1_000 - n % 50 : 1_100 + n % 50, 3);
            placed.put("acct-" + (n % 7) + "/" + id, orderId);
            if (n % 3 == 0) {
                engine.cancel(orderId);
            }
        }
        final OrderStateView written = viewOf(engine.events(), 100_000);
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            written.writeSnapshot(out);
        }
        final OrderStateView restored = new OrderStateView(100_000);
        restored.restoreSnapshot(new DataInputStream(new ByteArrayInputStream(bytes.toByteArray())));
        for (final Map.Entry<String, Long> e : placed.entrySet()) {
            final String[] pair = e.getKey().split("/");
            assertEquals(e.getValue(), written.orderIdOf(pair[0], pair[1]), e.getKey());
            assertEquals(e.getValue(), restored.orderIdOf(pair[0], pair[1]), e.getKey() + " after the restore");
        }
    }

    @Test
    void shouldNeverAnswerAnotherOrderToAReaderWhileTheWriterPlacesAndForgets() throws InterruptedException {
        final TestEngine engine = new TestEngine(1, EngineConfig.DEFAULTS);
        for (int n = 0; n < 20_000; n++) {
            final long id = engine.limitWithClientOrderId("acct-" + (n % 3), "c-" + n, Side.BUY, 1_000, 1);
            engine.cancel(id);
        }
        final List<EngineEvent> events = engine.events();
        final OrderStateView view = new OrderStateView(50);     // forgets almost every order soon after placing it
        final AtomicBoolean done = new AtomicBoolean();
        final AtomicReference<String> wrong = new AtomicReference<>();
        final Thread reader = new Thread(() -> {
            while (!done.get() && wrong.get() == null) {
                for (int n = 0; n < 20_000; n += 97) {
                    final long found = view.orderIdOf("acct-" + (n % 3), "c-" + n);
                    if (found != 0) {
                        final OrderState order = view.get(found);
                        if (order != null && !("c-" + n).equals(order.clientOrderId())) {
                            wrong.set("c-" + n + " answered order " + found + " of " + order.clientOrderId());
                        }
                    }
                }
            }
        });
        reader.start();
        apply(view, events, 0, events.size());
        done.set(true);
        reader.join();
        assertEquals(null, wrong.get());
    }

    private static OrderStateView viewOf(final List<EngineEvent> events, final int retained) {
        final OrderStateView view = new OrderStateView(retained);
        apply(view, events, 0, events.size());
        return view;
    }

    private static void apply(final OrderStateView view, final List<EngineEvent> events, final int from,
                              final int to) {
        for (int n = from; n < to; n++) {
            new OrderViewStage(view).onEvent(events.get(n), n, n == to - 1);
        }
    }
}
