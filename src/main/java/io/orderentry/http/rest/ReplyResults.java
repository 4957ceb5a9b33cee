package io.orderentry.http.rest;

import io.orderentry.engine.CommandResult;
import io.orderentry.http.ApiError;
import io.orderentry.http.json.Json;
import io.orderentry.pipeline.Answer;
import io.orderentry.query.OrderState;
import io.vertx.core.buffer.Buffer;
import java.util.List;

/**
 * One command's answer as a result object ({@link Json#result}): what a single REST request would have been answered,
 * its status with the order, the canceled orders or the error, in one JSON object; the results of a batch and the
 * stream's {@code {"op":"result",...}} messages are made here, so neither can drift from the REST answers.
 *
 * <p>Threads: any event loop (the rendering uses that thread's buffers).
 */
public final class ReplyResults {

    private final Json json;
    private final ReplyErrors errors;

    public ReplyResults(final Json json, final OrderRequestParser parser) {
        this.json = json;
        this.errors = new ReplyErrors(parser);
    }

    /**
     * @param id the JSON text of the request's id to echo ({@code "r-1"} with its quotes, or a number), or null
     * @return the result of a command the engine answered
     */
    public Buffer replied(final String id, final Reply reply) {
        return replied(id, reply, Json.BUFFER);
    }

    /** As {@link #replied(String, Reply)}, handed to {@code into} (see {@link Json.Payload}). */
    public <T> T replied(final String id, final Reply reply, final Json.Payload<T> into) {
        if (reply.journalFailed()) {
            return unavailable(id, Answer.JOURNAL_UNAVAILABLE.code(), Answer.JOURNAL_UNAVAILABLE.message(), into);
        }
        final OrderState order = reply.order();
        final Answer answer = Answer.of(reply.result(), false, order != null);
        if (answer.success()) {
            final List<OrderState> canceled = reply.result() == CommandResult.CANCELED_ALL ? reply.canceled() : null;
            return json.result(id, answer.status(), null, canceled == null ? order : null, canceled, into);
        }
        final ApiError error = errors.errorOf(answer, reply);
        return json.result(id, answer.status(), error, ReplyErrors.carriesOrder(error) ? order : null, null, into);
    }

    /** @return the result of a command refused before it reached the engine, or answered without it */
    public Buffer refused(final String id, final ApiError error) {
        return refused(id, error, Json.BUFFER);
    }

    /** As {@link #refused(String, ApiError)}, handed to {@code into}. */
    public <T> T refused(final String id, final ApiError error, final Json.Payload<T> into) {
        return json.result(id, error.status(), error, null, null, into);
    }

    /** @return the result of a command with no reply: 503 with {@code code} */
    public Buffer unavailable(final String id, final String code, final String message) {
        return unavailable(id, code, message, Json.BUFFER);
    }

    /** As {@link #unavailable(String, String, String)}, handed to {@code into}. */
    public <T> T unavailable(final String id, final String code, final String message, final Json.Payload<T> into) {
        return refused(id, new ApiError(503, code, message, null), into);
    }
}
