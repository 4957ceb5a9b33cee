package io.orderentry.bench.http;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufInputStream;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The JSON-only server of {@link JsonBaselineServer} without Vert.x: plain Netty (the same version Vert.x runs on),
 * one event loop per core, the same 16 KiB body limit, the same Jackson parse and the same small 201 answer. It
 * measures what Vert.x's request, response and routing objects cost per request, i.e. what an order path written
 * directly on Netty handlers could save (loadtest/RESULTS.md, issue 11).
 *
 * <pre>
 *   java -cp ... io.orderentry.bench.http.NettyBaselineServer [PORT]   # then the same wrk command as for the others
 * </pre>
 */
public final class NettyBaselineServer {

    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final AtomicLong IDS = new AtomicLong();

    private NettyBaselineServer() {
    }

    public static void main(final String[] args) throws Exception {
        final int port = args.length > 0 ? Integer.parseInt(args[0]) : 18082;
        final int loops = Runtime.getRuntime().availableProcessors();
        final EventLoopGroup boss = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
        final EventLoopGroup workers = new MultiThreadIoEventLoopGroup(loops, NioIoHandler.newFactory());
        try {
            new ServerBootstrap().group(boss, workers).channel(NioServerSocketChannel.class)
                    .childOption(ChannelOption.TCP_NODELAY, true)
                    .childHandler(new ChannelInitializer<SocketChannel>() {
                        @Override
                        protected void initChannel(final SocketChannel channel) {
                            channel.pipeline().addLast(new HttpServerCodec(), new HttpObjectAggregator(16 * 1024),
                                    new OrderHandler());
                        }
                    })
                    .bind("127.0.0.1", port).sync();
            System.out.println("netty baseline listening on 127.0.0.1:" + port + " with " + loops + " event loops");
            Thread.currentThread().join();
        } finally {
            boss.shutdownGracefully();
            workers.shutdownGracefully();
        }
    }

    private static final class OrderHandler extends SimpleChannelInboundHandler<FullHttpRequest> {
        @Override
        protected void channelRead0(final ChannelHandlerContext ctx, final FullHttpRequest request) throws Exception {
            final ByteBuf answer;
            final HttpResponseStatus status;
            try (ByteBufInputStream body = new ByteBufInputStream(request.content())) {
                final JsonNode order = MAPPER.readTree((java.io.InputStream) body);
                status = HttpResponseStatus.CREATED;
                answer = ctx.alloc().buffer().writeBytes(("{\"orderId\":\"" + IDS.incrementAndGet()
                        + "\",\"clientOrderId\":\"" + order.path("clientOrderId").asText() + "\",\"status\":\"NEW\"}")
                        .getBytes(StandardCharsets.UTF_8));
            } catch (final java.io.IOException e) {
                final FullHttpResponse bad = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1,
                        HttpResponseStatus.BAD_REQUEST);
                bad.headers().set(HttpHeaderNames.CONTENT_LENGTH, 0);
                ctx.writeAndFlush(bad).addListener(ChannelFutureListener.CLOSE);
                return;
            }
            final FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status, answer);
            response.headers().set(HttpHeaderNames.CONTENT_TYPE, "application/json")
                    .setInt(HttpHeaderNames.CONTENT_LENGTH, answer.readableBytes());
            if (HttpUtil.isKeepAlive(request)) {
                ctx.writeAndFlush(response);
            } else {
                ctx.writeAndFlush(response).addListener(ChannelFutureListener.CLOSE);
            }
        }
    }
}
