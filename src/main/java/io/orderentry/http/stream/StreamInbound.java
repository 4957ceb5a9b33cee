package io.orderentry.http.stream;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelPipeline;
import io.netty.handler.codec.http.websocketx.BinaryWebSocketFrame;
import io.netty.handler.codec.http.websocketx.ContinuationWebSocketFrame;
import io.netty.handler.codec.http.websocketx.CorruptedWebSocketFrameException;
import io.netty.handler.codec.http.websocketx.TextWebSocketFrame;
import io.netty.handler.codec.http.websocketx.WebSocketFrame;
import io.netty.handler.codec.http.websocketx.WebSocketFrameDecoder;
import io.netty.handler.codec.http.websocketx.extensions.WebSocketExtensionDecoder;
import io.orderentry.auth.TokenBucket;
import java.util.Map;
import java.util.zip.DataFormatException;
import java.util.zip.Inflater;

/**
 * What a stream client sends, before Vert.x or the stream reads it: a Netty handler right after the connection's
 * WebSocket frame decoder, which refuses frames over {@code ws.max.message.bytes} on the wire: this handler closes such
 * a connection with the decoder's status (1009; see {@link #exceptionCaught}).
 *
 * <h2>Budget</h2>
 * Every data frame takes a token from the connection's {@link TokenBucket} ({@code ws.max.requests.per.second},
 * bursts of {@code ws.max.requests.burst}), before it is inflated or parsed. A frame over the budget is dropped unread:
 * a whole message is answered by {@link Owner#refused} (an error message for the first of a run, nothing for the
 * rest, so that a flood cannot make the server write as fast as it reads), and a run of {@code burst} refused
 * messages in a row, or a refused fragment of a longer message, closes the connection with 1008.
 *
 * <h2>Bounded inflating</h2>
 * With permessage-deflate, Netty's decoder inflates a message whole before anything checks its size (a 64 KiB frame
 * can become 60 MB). This handler takes its place: it removes Netty's extension decoder from the pipeline and inflates
 * compressed messages itself, into at most {@code ws.max.message.bytes}; one byte more and the connection is closed
 * with 1009 without inflating the rest. Its window is kept from one message to the next (the extension's default,
 * context takeover), which also decodes clients that reset theirs. Bad deflate data closes with 1007; a compressed
 * frame on a connection that never negotiated the extension too.
 *
 * <p>Threads: the connection's event loop, which is its {@link StreamHub}'s. Owns its {@link Inflater}, ended when the
 * handler leaves the pipeline (the connection closed).
 */
final class StreamInbound extends ChannelInboundHandlerAdapter {

    /** What the handler tells its session. Called on the connection's event loop. */
    interface Owner {
        /** A whole message was dropped for the budget; {@code inARow} counts those since the last one accepted. */
        void refused(int inARow);

        /** The client broke a bound or the protocol: close the connection with {@code status} and {@code reason}. */
        void violated(short status, String reason);
    }

    /** WebSocket close status: the message was not consistent with its type (here: bad deflate data). */
    static final short INVALID_PAYLOAD = 1007;
    /** WebSocket close status: a message too big to process. */
    static final short TOO_BIG = 1009;
    /** The name of this handler in the pipeline. */
    static final String NAME = "oe-stream-inbound";
    private static final byte[] FLUSH_TAIL = {0, 0, (byte) 0xFF, (byte) 0xFF};
    private static final int RSV1 = 0x4;

    private final Owner owner;
    private TokenBucket budget;
    private final int maxMessageBytes;
    /** Scratch space for one inflate call, shared by the sessions of one event loop. */
    private final byte[] scratch;
    private Inflater inflater;
    private boolean extensionRemoved;
    private boolean inCompressedMessage;
    private int messageBytes;
    private int refusedInARow;
    private boolean stopped;
    private long lastReadNanos = System.nanoTime();

    /**
     * @param scratch at least {@code maxMessageBytes + 1} bytes, used only on this event loop
     */
    StreamInbound(final Owner owner, final TokenBucket budget, final int maxMessageBytes, final byte[] scratch) {
        if (scratch.length <= maxMessageBytes) {
            throw new IllegalArgumentException("the scratch buffer must hold one byte more than a message");
        }
        this.owner = owner;
        this.budget = budget;
        this.maxMessageBytes = maxMessageBytes;
        this.scratch = scratch;
    }

    /** Charges the connection's next messages to {@code budget} instead (it logged in for order entry). */
    void budget(final TokenBucket budget) {
        this.budget = budget;
    }

    /**
     * Puts {@code inbound} right after the pipeline's WebSocket frame decoder.
     *
     * @throws IllegalStateException when the pipeline has no frame decoder (not a WebSocket connection)
     */
    static void install(final ChannelPipeline pipeline, final StreamInbound inbound) {
        for (final Map.Entry<String, ChannelHandler> handler : pipeline) {
            if (handler.getValue() instanceof WebSocketFrameDecoder) {
                pipeline.addAfter(handler.getKey(), NAME, inbound);
                return;
            }
        }
        throw new IllegalStateException("no WebSocket frame decoder in the stream connection's pipeline");
    }

    /** @return {@link System#nanoTime()} when the last frame of any kind (a pong too) came from the client */
    long lastReadNanos() {
        return lastReadNanos;
    }

    @Override
    public void channelRead(final ChannelHandlerContext ctx, final Object msg) {
        if (msg instanceof WebSocketFrame) {
            lastReadNanos = System.nanoTime();
        }
        if (!(msg instanceof WebSocketFrame frame) || !data(frame)) {
            ctx.fireChannelRead(msg);
            return;
        }
        if (stopped) {
            frame.release();
            return;
        }
        if (budget.take(System.nanoTime()) < 0) {
            frame.release();
            refuse(frame);
            return;
        }
        refusedInARow = 0;
        final boolean first = !(frame instanceof ContinuationWebSocketFrame);
        if (first) {
            inCompressedMessage = (frame.rsv() & RSV1) != 0;
            messageBytes = 0;
            if (inCompressedMessage) {
                removeExtensionDecoder(ctx.pipeline());
            }
        }
        if (!inCompressedMessage) {
            ctx.fireChannelRead(frame);
            return;
        }
        final WebSocketFrame inflated = inflate(ctx, frame);
        if (inflated != null) {
            ctx.fireChannelRead(inflated);
        }
    }

    /**
     * A frame the decoder before this handler refused (over {@code ws.max.message.bytes} on the wire, or malformed)
     * closes the connection with the decoder's status (1009, 1002), which Vert.x would otherwise close with 1000.
     */
    @Override
    public void exceptionCaught(final ChannelHandlerContext ctx, final Throwable cause) {
        if (cause instanceof CorruptedWebSocketFrameException corrupted && !stopped) {
            stop((short) corrupted.closeStatus().code(), corrupted.getMessage());
            return;
        }
        ctx.fireExceptionCaught(cause);
    }

    @Override
    public void handlerRemoved(final ChannelHandlerContext ctx) {
        if (inflater != null) {
            inflater.end();
            inflater = null;
        }
    }

    private static boolean data(final WebSocketFrame frame) {
        return frame instanceof TextWebSocketFrame || frame instanceof BinaryWebSocketFrame
                || frame instanceof ContinuationWebSocketFrame;
    }

    private void refuse(final WebSocketFrame frame) {
        if (!frame.isFinalFragment() || frame instanceof ContinuationWebSocketFrame) {
            stop(StreamSession.REFUSED, "too many messages: a fragmented message over the budget");
            return;
        }
        owner.refused(++refusedInARow);
    }

    /**
     * Takes Netty's permessage-deflate decoder out of the pipeline, at the first compressed message (the handshake has
     * put it there by then); until then it passes uncompressed frames on untouched.
     */
    private void removeExtensionDecoder(final ChannelPipeline pipeline) {
        if (extensionRemoved) {
            return;
        }
        for (final Map.Entry<String, ChannelHandler> handler : pipeline) {
            if (handler.getValue() instanceof WebSocketExtensionDecoder) {
                pipeline.remove(handler.getValue());
                extensionRemoved = true;
                return;
            }
        }
    }

    /** @return the frame with its payload inflated and RSV1 clear, or null after closing the connection */
    private WebSocketFrame inflate(final ChannelHandlerContext ctx, final WebSocketFrame frame) {
        try {
            if (!extensionRemoved) {
                stop(StreamSession.PROTOCOL_ERROR, "a compressed frame without permessage-deflate");
                return null;
            }
            if (inflater == null) {
                inflater = new Inflater(true);
            }
            final ByteBuf out = ctx.alloc().heapBuffer(Math.min(maxMessageBytes, 1024));
            try {
                if (!inflateInto(out, frame.content()) || frame.isFinalFragment() && !inflateInto(out, FLUSH_TAIL)) {
                    out.release();
                    return null;
                }
            } catch (final DataFormatException e) {
                out.release();
                stop(INVALID_PAYLOAD, "the message's deflate data is not valid");
                return null;
            }
            final int rsv = frame.rsv() & ~RSV1;
            if (frame instanceof TextWebSocketFrame) {
                return new TextWebSocketFrame(frame.isFinalFragment(), rsv, out);
            }
            if (frame instanceof BinaryWebSocketFrame) {
                return new BinaryWebSocketFrame(frame.isFinalFragment(), rsv, out);
            }
            return new ContinuationWebSocketFrame(frame.isFinalFragment(), rsv, out);
        } finally {
            frame.release();
        }
    }

    private boolean inflateInto(final ByteBuf out, final ByteBuf content) throws DataFormatException {
        final byte[] input = new byte[content.readableBytes()];
        content.getBytes(content.readerIndex(), input);
        return inflateInto(out, input);
    }

    /** @return false after closing the connection because the message grew past the bound */
    private boolean inflateInto(final ByteBuf out, final byte[] input) throws DataFormatException {
        inflater.setInput(input);
        while (true) {
            final int n = inflater.inflate(scratch, 0, scratch.length);
            messageBytes += n;
            if (messageBytes > maxMessageBytes) {
                stop(TOO_BIG, "a message over " + maxMessageBytes + " bytes once inflated");
                return false;
            }
            out.writeBytes(scratch, 0, n);
            if (n == 0 && (inflater.needsInput() || inflater.needsDictionary() || inflater.finished())) {
                return true;
            }
        }
    }

    private void stop(final short status, final String reason) {
        stopped = true;
        owner.violated(status, reason);
    }
}
