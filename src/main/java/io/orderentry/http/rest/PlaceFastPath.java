package io.orderentry.http.rest;

import io.orderentry.auth.ApiKey;
import io.orderentry.http.AccessCheck;
import io.orderentry.http.AccessControl;
import io.orderentry.http.OrderVerticle;
import io.orderentry.http.ReadinessCheck;
import io.orderentry.http.RequestAdmission;
import io.orderentry.http.RequestRefusals;
import io.orderentry.pipeline.CommandType;
import io.vertx.core.Handler;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServerRequest;
import java.util.Arrays;

/**
 * The hot path: {@code POST /api/v1/orders} taken straight from the server's request handler, before the router. It
 * does what the router's handlers for it do, through the same objects ({@link RequestAdmission}, {@link AccessCheck},
 * {@link ReadinessCheck}, then {@link OrderCommands#place}): metrics, request id, a body of at most
 * {@value OrderVerticle#MAX_BODY_BYTES} bytes (else 413), access, readiness; but without a routing context, a body
 * handler or a per-request map. One object per request, the {@link PlaceRequest} that gathers its body.
 *
 * <p>Threads: the owning verticle's event loop.
 */
public final class PlaceFastPath {

    private final RequestAdmission admission;
    private final AccessCheck access;
    private final ReadinessCheck readiness;
    private final RequestRefusals refusals;
    private final OrderCommands commands;

    public PlaceFastPath(final RequestAdmission admission, final AccessCheck access, final ReadinessCheck readiness,
                         final RequestRefusals refusals, final OrderCommands commands) {
        this.admission = admission;
        this.access = access;
        this.readiness = readiness;
        this.refusals = refusals;
        this.commands = commands;
    }

    /** Takes one {@code POST /api/v1/orders}: reads its body, then places the order. */
    public void handle(final HttpServerRequest request) {
        new PlaceRequest(request).begin();
    }

    /** One {@code POST /api/v1/orders} taken without the router: metrics, request id, bounded body, then place. */
    private final class PlaceRequest implements Handler<Buffer> {
        private final HttpServerRequest request;
        private final String tag;
        private byte[] body;
        private boolean refused;

        PlaceRequest(final HttpServerRequest request) {
            this.request = request;
            this.tag = admission.tag(request.response());
        }

        void begin() {
            admission.measure(request.response(), "POST", OrderVerticle.ORDERS_PATH);
            final String length = request.getHeader(HttpHeaders.CONTENT_LENGTH);
            if (length != null && declaredTooLarge(length)) {
                tooLarge();
                return;
            }
            request.handler(this);
            request.endHandler(ignored -> {
                if (!refused && !request.response().ended()) {   // ended: answered 408 while the body came
                    place(body == null ? new byte[0] : body);
                }
            });
        }

        private void place(final byte[] whole) {
            final ApiKey key = access.admit(request, tag, AccessControl.Need.ORDER, CommandType.PLACE, whole);
            if (key != null && !readiness.refuseUnlessAccepting(request)) {
                commands.place(request, tag, whole, key);
            }
        }

        @Override
        public void handle(final Buffer chunk) {
            if (refused) {
                return;
            }
            final int had = body == null ? 0 : body.length;
            if (had + chunk.length() > OrderVerticle.MAX_BODY_BYTES) {
                tooLarge();
                return;
            }
            if (body == null) {
                body = chunk.getBytes();
            } else {
                final byte[] joined = Arrays.copyOf(body, had + chunk.length());
                chunk.getBytes(0, chunk.length(), joined, had);
                body = joined;
            }
        }

        private void tooLarge() {
            refused = true;
            refusals.refuse(request, tag, RequestRefusals.BODY_TOO_LARGE);
        }

        private static boolean declaredTooLarge(final String length) {
            try {
                return Long.parseLong(length.trim()) > OrderVerticle.MAX_BODY_BYTES;
            } catch (final NumberFormatException e) {
                return false;   // not a length: read the body and let its real size decide
            }
        }
    }
}
