package io.orderentry.http.rest;

import io.orderentry.http.ApiError;
import io.orderentry.http.Responses;
import io.orderentry.http.json.Json;
import io.orderentry.pipeline.Answer;
import io.orderentry.query.OrderState;
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
    record Entry(BatchAnswer batch, int index) {
    }

    private final HttpServerRequest request;
    private final Json json;
    private final ReplyErrors errors;
    private final Buffer[] results;
    private int missing;

    BatchAnswer(final HttpServerRequest request, final int size, final Json json, final ReplyErrors errors) {
        this.request = request;
        this.json = json;
        this.errors = errors;
        this.results = new Buffer[size];
        this.missing = size;
    }

    /** @return the entry of order {@code index}, to wait under its request id */
    Entry entry(final int index) {
        return new Entry(this, index);
    }

    /** Order {@code index} was refused before it reached the engine (at the edge, or by its rate limit). */
    void refused(final int index, final ApiError error) {
        set(index, json.result(error.status(), error, null));
    }

    /** Order {@code index} has the engine's reply. */
    void replied(final int index, final Reply reply) {
        if (reply.journalFailed()) {
            unavailable(index, Answer.JOURNAL_UNAVAILABLE.code(), Answer.JOURNAL_UNAVAILABLE.message());
            return;
        }
        final OrderState order = reply.order();
        final Answer answer = Answer.of(reply.result(), false, order != null);
        if (answer.success()) {
            set(index, json.result(answer.status(), null, order));
        } else {
            final ApiError error = errors.errorOf(answer, reply);
            set(index, json.result(answer.status(), error, ReplyErrors.carriesOrder(error) ? order : null));
        }
    }

    /** Order {@code index} has no reply and will get none: answered 503 with {@code code} (safe to resend or not). */
    void unavailable(final int index, final String code, final String message) {
        set(index, json.result(503, new ApiError(503, code, message, null), null));
    }

    private void set(final int index, final Buffer result) {
        if (results[index] != null) {
            throw new IllegalStateException("order " + index + " of a batch answered twice");
        }
        results[index] = result;
        if (--missing == 0) {
            Responses.respond(request, 200, Json.results(results));
        }
    }
}
