package io.orderentry.http.json;

import io.orderentry.instrument.DecimalFormats;
import io.orderentry.instrument.DecimalText;
import io.orderentry.engine.Side;
import io.orderentry.marketdata.BookSnapshot;

import java.util.zip.CRC32;

/**
 * The checksum a client uses to check its local copy of a book (docs/marketdata.md, "Book checksum"): for the
 * {@link BookSnapshot#CHECKSUM_LEVELS} best asks, lowest price first, then the {@link BookSnapshot#CHECKSUM_LEVELS} best bids, highest
 * first, the price and then the quantity of each level as the API writes them, with the decimal point and
 * then the leading zeros removed, all concatenated; the CRC32 (IEEE 802.3, as zlib's {@code crc32}) of those
 * ASCII bytes, as an unsigned 32-bit number.
 *
 * <p>Not thread safe: it reuses its buffers. One instance per thread.
 */
final class BookChecksum {

    /** Asks first, then bids. */
    private static final Side[] ORDER = {Side.SELL, Side.BUY};

    private final DecimalFormats formats;
    private final char[] digits = new char[DecimalText.MAX_CHARS];
    private final byte[] text = new byte[2 * 2 * BookSnapshot.CHECKSUM_LEVELS * DecimalText.MAX_CHARS];
    private final CRC32 crc = new CRC32();

    /** @param formats the instruments' price and quantity formats */
    BookChecksum(final DecimalFormats formats) {
        this.formats = formats;
    }

    /** @return the checksum of a book's best {@link BookSnapshot#CHECKSUM_LEVELS} levels a side, read in place */
    long of(final int symbol, final BookSnapshot top) {
        int length = 0;
        for (final Side side : ORDER) {
            for (int i = 0; i < Math.min(BookSnapshot.CHECKSUM_LEVELS, top.levelCount(side)); i++) {
                length = append(formats.price(symbol), top.price(side, i), length);
                length = append(formats.quantity(symbol), top.quantity(side, i), length);
            }
        }
        crc.reset();
        crc.update(text, 0, length);
        return crc.getValue();
    }

    /** Appends a decimal without its point and leading zeros. */
    private int append(final DecimalText format, final long value, final int at) {
        final int n = format.format(value, digits);
        int length = at;
        boolean leading = true;
        for (int i = 0; i < n; i++) {
            final char c = digits[i];
            if (c == '.' || leading && c == '0') {
                continue;
            }
            leading = false;
            text[length++] = (byte) c;
        }
        return length;
    }
}
