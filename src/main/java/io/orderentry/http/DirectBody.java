package io.orderentry.http;

import io.netty.buffer.ByteBuf;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.internal.buffer.BufferInternal;

/**
 * Answers with a body in a pooled direct buffer, released once the answer is written.
 *
 * <p>Why: a body in a Vert.x heap buffer is a fresh byte array per answer (about a third of the bytes the event loops
 * allocated per order, measured with JFR) that the socket write then copies again into a direct buffer. A pooled
 * direct buffer is neither allocated on the heap nor copied. Vert.x writes a buffer that is not its own heap buffer
 * through an unreleasable view, so it never returns it to the pool: this class does, when the write completes or
 * fails, and at once when the answer can no longer be written.
 *
 * <p>Threads: the request's event loop.
 */
public final class DirectBody {

    private DirectBody() {
    }

    /**
     * Ends the response with {@code body} as it is; takes ownership of {@code body} (one reference), whatever happens.
     *
     * @param contentType the Content-Type header
     */
    public static void respond(final HttpServerRequest request, final int status, final String contentType,
                        final ByteBuf body) {
        final HttpServerResponse response = request.response();
        if (response.ended() || response.closed()) {
            body.release();
            return;
        }
        boolean handedOver = false;
        try {
            response.setStatusCode(status).putHeader("Content-Type", contentType);
            response.end(BufferInternal.buffer(body)).onComplete(ignored -> body.release());
            handedOver = true;
        } finally {
            if (!handedOver) {
                body.release();
            }
        }
    }
}
