package io.orderentry.http.rest;

import io.orderentry.http.ApiError;
import io.orderentry.http.Responses;
import io.orderentry.http.json.Json;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServerRequest;

/**
 * The answer to one batch request ({@code POST} or {@code DELETE /api/v1/orders/batch}): one result per order in
 * request order, each exactly what a single request would have been answered ({@link Json#result}), sent as
 * {@code 200 {"results":[...]}} once every order has its result: those refused at the edge at once, the others when
 * the engine's reply for each comes back, durable.
 *
 * <p>Threads: the owning verticle's event loop (it is completed from {@link PendingReplies}, which runs there).
 */
final class BatchAnswer {

    /** One order of a batch that waits in {@link PendingReplies} for the engine. */
    record Entry(BatchAnswer batch, int index) implements ReplyWaiter {
        @Override
        public void replied(final Reply reply) {
            batch.set(index, batch.results.replied(null, reply));
        }

        @Override
        public void unavailable(final String code, final String message) {
            batch.set(index, batch.results.unavailable(null, code, message));
        }
    }

    private final HttpServerRequest request;
    private final ReplyResults results;
    private final Buffer[] answers;
    private int missing;

    BatchAnswer(final HttpServerRequest request, final int size, final ReplyResults results) {
        this.request = request;
        this.results = results;
        this.answers = new Buffer[size];
        this.missing = size;
    }

    /** @return the entry of order {@code index}, to wait under its request id */
    Entry entry(final int index) {
        return new Entry(this, index);
    }

    /** Order {@code index} was refused before it reached the engine (at the edge, or by its rate limit). */
    void refused(final int index, final ApiError error) {
        set(index, results.refused(null, error));
    }

    private void set(final int index, final Buffer result) {
        if (answers[index] != null) {
            throw new IllegalStateException("order " + index + " of a batch answered twice");
        }
        answers[index] = result;
        if (--missing == 0) {
            Responses.respond(request, 200, Json.results(answers));
        }
    }
}
