package io.orderentry.http.json;

import io.orderentry.instrument.DecimalFormats;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.orderentry.engine.Side;
import io.orderentry.instrument.Instrument;
import io.orderentry.marketdata.BookSnapshot;
import io.orderentry.marketdata.L2Side;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.zip.CRC32;
import org.junit.jupiter.api.Test;

class BookChecksumTest {

    private static final Instrument BTC = new Instrument(0, "BTCUSD", new BigDecimal("0.01"), new BigDecimal("0.0001"),
            100_000_000_000L, 10_000_000L);

    @Test
    void documentedExampleGivesTheCrc32OfAsksThenBidsWithoutPointsAndLeadingZeros() {
        final BookSnapshot book = book(new long[][] {{9_900, 20_000}, {9_850, 500}}, new long[][] {{10_100, 10_000}});
        assertEquals(crc("10100" + "10000" + "9900" + "20000" + "9850" + "500"), checksum(book));
        assertEquals(3_747_368_167L, checksum(book), "the figure docs/marketdata.md gives for this example");
    }

    @Test
    void onlyTheTenBestLevelsOfEachSideCount() {
        final long[][] bids = new long[15][];
        final long[][] asks = new long[15][];
        for (int i = 0; i < 15; i++) {
            bids[i] = new long[] {10_000 - i, 100 + i};
            asks[i] = new long[] {10_001 + i, 200 + i};
        }
        final StringBuilder expected = new StringBuilder();
        for (int i = 0; i < 10; i++) {
            expected.append(digits(BigDecimal.valueOf(10_001 + i, 2))).append(digits(BigDecimal.valueOf(200 + i, 4)));
        }
        for (int i = 0; i < 10; i++) {
            expected.append(digits(BigDecimal.valueOf(10_000 - i, 2))).append(digits(BigDecimal.valueOf(100 + i, 4)));
        }
        assertEquals(crc(expected.toString()), checksum(book(bids, asks)));
        bids[12] = new long[] {10_000 - 12, 999};
        assertEquals(crc(expected.toString()), checksum(book(bids, asks)), "a level below the tenth changes nothing");
        bids[9] = new long[] {10_000 - 9, 999};
        assertNotEquals(crc(expected.toString()), checksum(book(bids, asks)), "the tenth level counts");
    }

    @Test
    void emptyBookIsTheCrcOfTheEmptyString() {
        assertEquals(0, checksum(book(new long[0][], new long[0][])));
    }

    @Test
    void restBookAndStreamSnapshotCarryTheChecksumOfTheirLevels() throws Exception {
        final MarketDataJson json = new MarketDataJson(new JsonFactory(), List.of(BTC));
        final BookSnapshot book = book(new long[][] {{9_900, 20_000}, {9_850, 500}}, new long[][] {{10_100, 10_000}});
        final ObjectMapper mapper = new ObjectMapper();
        final JsonNode rest = mapper.readTree(json.orderBook(book, 1));
        assertEquals(1, rest.get("bids").size(), "depth 1 shows one level a side");
        assertEquals(3_747_368_167L, rest.get("checksum").asLong(), "but the checksum covers the best ten levels");
        assertEquals(3_747_368_167L, mapper.readTree(json.bookSnapshot(book)).get("checksum").asLong());
    }

    private static long checksum(final BookSnapshot book) {
        return new BookChecksum(new DecimalFormats(List.of(BTC))).of(BTC.index(), book);
    }

    /** @param bids and asks as {ticks, lots} pairs */
    private static BookSnapshot book(final long[][] bids, final long[][] asks) {
        final L2Side bidSide = new L2Side(Side.BUY, 16);
        final L2Side askSide = new L2Side(Side.SELL, 16);
        for (final long[] level : bids) {
            bidSide.set(level[0], level[1]);
        }
        for (final long[] level : asks) {
            askSide.set(level[0], level[1]);
        }
        return BookSnapshot.of(0, 7, bidSide, askSide);
    }

    private static String digits(final BigDecimal value) {
        return value.toPlainString().replace(".", "").replaceFirst("^0+", "");
    }

    private static long crc(final String text) {
        final CRC32 crc = new CRC32();
        crc.update(text.getBytes(StandardCharsets.US_ASCII));
        return crc.getValue();
    }
}
