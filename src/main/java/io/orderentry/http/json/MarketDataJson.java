package io.orderentry.http.json;

import io.orderentry.instrument.DecimalFormats;
import io.orderentry.instrument.DecimalText;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import io.orderentry.engine.Side;
import io.orderentry.http.ApiError;
import io.orderentry.instrument.Instrument;
import io.orderentry.marketdata.BookSnapshot;
import io.orderentry.marketdata.BookUpdate;
import io.orderentry.marketdata.Channel;
import io.orderentry.marketdata.Ticker;
import io.orderentry.marketdata.Trade;
import io.orderentry.marketdata.TradeBatch;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.util.List;

/**
 * The JSON of market data: REST order books and trades, and every WebSocket message (see
 * docs/marketdata.md). Prices and quantities are decimal strings at the instrument's scale; a level
 * that is gone has quantity {@code "0"}.
 *
 * <p>Not thread safe: it reuses its buffers. One instance per event loop.
 */
public final class MarketDataJson {

    private static final int INITIAL_BUFFER = 4096;
    /** A buffer grown past this by a deep book snapshot is dropped after use rather than kept. */
    private static final int RETAINED_BUFFER = 256 * 1024;

    private final JsonFactory factory;
    private final List<Instrument> instruments;
    private final DecimalFormats formats;
    private StringWriter out = new StringWriter(INITIAL_BUFFER);
    private final char[] digits = new char[DecimalText.MAX_CHARS];
    private final BookChecksum checksum;

    /**
     * @param instruments indexed by {@link Instrument#index()}
     */
    public MarketDataJson(final JsonFactory factory, final List<Instrument> instruments) {
        this.factory = factory;
        this.instruments = List.copyOf(instruments);
        this.formats = new DecimalFormats(instruments);
        this.checksum = new BookChecksum(formats);
    }

    /**
     * REST: {@code {"symbol","sequence","checksum","bids":[[price,qty],...],"asks":[...]}}, at most depth levels a
     * side; the checksum always covers the best {@link BookSnapshot#CHECKSUM_LEVELS} levels of the whole book.
     */
    public String orderBook(final BookSnapshot book, final int depth) {
        return write(g -> {
            g.writeStartObject();
            g.writeStringField("symbol", symbol(book.symbol()));
            g.writeNumberField("sequence", book.sequence());
            g.writeNumberField("checksum", checksum.of(book.symbol(), book));
            levels(g, book, depth);
            g.writeEndObject();
        });
    }

    /** REST: the trades as an array, in the order given. */
    public String trades(final int symbol, final List<Trade> trades) {
        return write(g -> tradeArray(g, symbol, trades));
    }

    /** Stream: the whole book. */
    public String bookSnapshot(final BookSnapshot book) {
        return write(g -> {
            head(g, "snapshot", Channel.BOOK, book.symbol(), book.sequence());
            g.writeNumberField("checksum", checksum.of(book.symbol(), book));
            levels(g, book, Integer.MAX_VALUE);
            g.writeEndObject();
        });
    }

    /** Stream: changed levels as {@code [side, price, newQuantity]}, and the checksum of the book after them. */
    public String bookUpdate(final BookUpdate update) {
        return write(g -> {
            head(g, "update", Channel.BOOK, update.symbol(), update.sequence());
            g.writeNumberField("checksum", checksum.of(update.symbol(), update.top()));
            g.writeArrayFieldStart("changes");
            for (int i = 0; i < update.size(); i++) {
                g.writeStartArray();
                g.writeString(update.side(i).name());
                price(g, update.symbol(), update.price(i));
                if (update.quantity(i) == 0) {
                    g.writeString("0");
                } else {
                    quantity(g, update.symbol(), update.quantity(i));
                }
                g.writeEndArray();
            }
            g.writeEndArray();
            g.writeEndObject();
        });
    }

    /** Stream: recent trades, newest first. */
    public String tradesSnapshot(final int symbol, final long sequence, final List<Trade> newestFirst) {
        return write(g -> {
            head(g, "snapshot", Channel.TRADES, symbol, sequence);
            g.writeFieldName("trades");
            tradeArray(g, symbol, newestFirst);
            g.writeEndObject();
        });
    }

    /** Stream: the trades of one batch, oldest first. */
    public String tradesUpdate(final TradeBatch batch) {
        return write(g -> {
            head(g, "update", Channel.TRADES, batch.symbol(), batch.sequence());
            g.writeFieldName("trades");
            tradeArray(g, batch.symbol(), batch.trades());
            g.writeEndObject();
        });
    }

    /** Stream: the whole ticker, as a snapshot or an update. */
    public String ticker(final Ticker ticker, final boolean snapshot) {
        return write(g -> {
            head(g, snapshot ? "snapshot" : "update", Channel.TICKER, ticker.symbol(), ticker.sequence());
            g.writeFieldName("bestBid");
            level(g, ticker.symbol(), ticker.bestBid(), ticker.bestBidQuantity());
            g.writeFieldName("bestAsk");
            level(g, ticker.symbol(), ticker.bestAsk(), ticker.bestAskQuantity());
            g.writeFieldName("lastTrade");
            if (ticker.lastTrade() == null) {
                g.writeNull();
            } else {
                trade(g, ticker.symbol(), ticker.lastTrade());
            }
            g.writeFieldName("volume24h");
            quantity(g, ticker.symbol(), ticker.volume24h());
            g.writeEndObject();
        });
    }

    /** Stream: {@code {"type":"heartbeat","timestamp":"..."}}. */
    public String heartbeat(final long epochMicros) {
        return write(g -> {
            g.writeStartObject();
            g.writeStringField("type", "heartbeat");
            g.writeStringField("timestamp", Json.timestamp(epochMicros));
            g.writeEndObject();
        });
    }

    /** Stream: the acknowledgement of an unsubscribe. */
    public String unsubscribed(final Channel channel, final int symbol) {
        return write(g -> {
            g.writeStartObject();
            g.writeStringField("type", "unsubscribed");
            g.writeStringField("channel", channel.wireName());
            g.writeStringField("symbol", symbol(symbol));
            g.writeEndObject();
        });
    }

    /** Stream: {@code {"type":"error","error":{"code","message","field"?}}}, the documented error shape. */
    public String error(final ApiError error) {
        return write(g -> {
            g.writeStartObject();
            g.writeStringField("type", "error");
            Json.writeError(g, error);
            g.writeEndObject();
        });
    }

    private void head(final JsonGenerator g, final String type, final Channel channel, final int symbol,
                      final long sequence) throws IOException {
        g.writeStartObject();
        g.writeStringField("type", type);
        g.writeStringField("channel", channel.wireName());
        g.writeStringField("symbol", symbol(symbol));
        g.writeNumberField("sequence", sequence);
    }

    private void levels(final JsonGenerator g, final BookSnapshot book, final int depth) throws IOException {
        for (final Side side : Side.values()) {
            g.writeArrayFieldStart(side == Side.BUY ? "bids" : "asks");
            final int count = Math.min(depth, book.levelCount(side));
            for (int i = 0; i < count; i++) {
                g.writeStartArray();
                price(g, book.symbol(), book.price(side, i));
                quantity(g, book.symbol(), book.quantity(side, i));
                g.writeEndArray();
            }
            g.writeEndArray();
        }
    }

    /** A {@code [price, quantity]} pair, or null when the price is 0 (no level). */
    private void level(final JsonGenerator g, final int symbol, final long price, final long quantity)
            throws IOException {
        if (price == 0) {
            g.writeNull();
            return;
        }
        g.writeStartArray();
        price(g, symbol, price);
        quantity(g, symbol, quantity);
        g.writeEndArray();
    }

    private void tradeArray(final JsonGenerator g, final int symbol, final List<Trade> trades) throws IOException {
        g.writeStartArray();
        for (int i = 0; i < trades.size(); i++) {
            trade(g, symbol, trades.get(i));
        }
        g.writeEndArray();
    }

    private void trade(final JsonGenerator g, final int symbol, final Trade trade) throws IOException {
        g.writeStartObject();
        g.writeNumberField("tradeId", trade.tradeId());
        g.writeFieldName("price");
        price(g, symbol, trade.price());
        g.writeFieldName("quantity");
        quantity(g, symbol, trade.quantity());
        g.writeStringField("takerSide", trade.takerSide().name());
        g.writeStringField("timestamp", Json.timestamp(trade.timestampMicros()));
        g.writeEndObject();
    }

    private void price(final JsonGenerator g, final int symbol, final long ticks) throws IOException {
        g.writeString(digits, 0, formats.price(symbol).format(ticks, digits));
    }

    private void quantity(final JsonGenerator g, final int symbol, final long lots) throws IOException {
        g.writeString(digits, 0, formats.quantity(symbol).format(lots, digits));
    }

    private String symbol(final int symbol) {
        return instruments.get(symbol).symbol();
    }

    private String write(final Json.Body body) {
        out.getBuffer().setLength(0);
        try (JsonGenerator g = factory.createGenerator(out)) {
            body.writeTo(g);
        } catch (final IOException e) {
            throw new UncheckedIOException("rendering market data JSON into memory failed", e);
        }
        final String text = out.toString();
        if (out.getBuffer().capacity() > RETAINED_BUFFER) {
            out = new StringWriter(INITIAL_BUFFER);
        }
        return text;
    }
}
