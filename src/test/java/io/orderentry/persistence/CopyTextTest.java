package io.orderentry.persistence;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.orderentry.app.Instrument;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Random;
import org.junit.jupiter.api.Test;

class CopyTextTest {

    private static final DateTimeFormatter COPY_TIME =
            DateTimeFormatter.ofPattern("uuuu-MM-dd HH:mm:ss.SSSSSS'+00'").withZone(ZoneOffset.UTC);

    private final CopyText text = new CopyText();

    @Test
    void decimalsAreExactlyWhatTheApiRendersAtTheInstrumentsScale() {
        final Random random = new Random(5);
        for (final String unit : new String[] {"0.01", "0.0001", "0.5", "0.25", "1", "10", "5E+2", "0.00000001"}) {
            final Instrument instrument = new Instrument(0, "XYZ", new BigDecimal(unit), new BigDecimal(unit),
                    1_000_000_000L, 1_000_000L);
            final CopyText.Units units = CopyText.Units.of(new BigDecimal(unit));
            for (int i = 0; i < 1_000; i++) {
                final long count = i < 3 ? i : random.nextInt(1_000_000_000);
                assertEquals(instrument.price(count).toPlainString(), single(t -> t.decimal(count, units)),
                        count + " units of " + unit);
            }
        }
    }

    @Test
    void decimalsTooLargeForALongAreStillExact() {
        final CopyText.Units units = new CopyText.Units(1_000_000, 2);
        assertEquals(BigDecimal.valueOf(Long.MAX_VALUE).multiply(BigDecimal.valueOf(1_000_000)).movePointLeft(2)
                .toPlainString(), single(t -> t.decimal(Long.MAX_VALUE, units)));
    }

    @Test
    void timestampsAreUtcWithMicroseconds() {
        final Random random = new Random(9);
        for (int i = 0; i < 10_000; i++) {
            final long micros = i == 0 ? 0 : (long) (random.nextDouble() * 8_000_000_000_000_000L);
            final Instant instant = Instant.ofEpochSecond(micros / 1_000_000, micros % 1_000_000 * 1_000);
            assertEquals(COPY_TIME.format(instant), single(t -> t.timestamp(micros)), "micros " + micros);
        }
    }

    @Test
    void rowsAreTabSeparatedWithEscapesAndNulls() {
        text.reset();
        text.number(-42).text("a\tb\\c\nd").nullValue().bool(true).name(null).text(null);
        text.endRow();
        text.number(7).bool(false);
        text.endRow();
        assertEquals("-42\ta\\tb\\\\c\\nd\t\\N\tt\t\\N\t\\N\n7\tf\n", written());
    }

    private String single(final java.util.function.Consumer<CopyText> value) {
        text.reset();
        value.accept(text);
        text.endRow();
        final String row = written();
        return row.substring(0, row.length() - 1);
    }

    private String written() {
        return new String(text.bytes(), 0, text.length(), StandardCharsets.US_ASCII);
    }
}
