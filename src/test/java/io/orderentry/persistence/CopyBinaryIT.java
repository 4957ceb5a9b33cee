package io.orderentry.persistence;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.orderentry.testing.PostgresFixture;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.postgresql.PGConnection;
import org.postgresql.copy.CopyIn;

/** What PostgreSQL reads from {@link CopyBinary}: each value as the server itself prints it back. */
class CopyBinaryIT {

    @RegisterExtension
    static final PostgresFixture DB = new PostgresFixture();

    private final CopyBinary out = new CopyBinary();

    @BeforeEach
    void freshTable() throws SQLException {
        DB.execute("DROP TABLE IF EXISTS copied; CREATE TABLE copied (id BIGINT, n NUMERIC, t TIMESTAMPTZ, s TEXT,"
                + " b BOOLEAN)");
    }

    @Test
    void decimalsReadBackExactlyAtTheInstrumentsScale() throws SQLException {
        final Random random = new Random(5);
        final List<String> expected = new ArrayList<>();
        out.reset();
        for (final String unit : new String[] {"0.01", "0.0001", "0.5", "0.25", "1", "10", "5E+2", "0.00000001",
            "0.000000000000000001"}) {
            final CopyBinary.Units units = CopyBinary.Units.of(new BigDecimal(unit));
            for (int i = 0; i < 500; i++) {
                final long count = i < 3 ? i : i % 2 == 0 ? random.nextInt(1_000_000_000) : random.nextLong() / 1_000;
                out.number(expected.size()).decimal(count, units).nullValue().nullValue().nullValue();
                out.endRow();
                expected.add(BigDecimal.valueOf(count).multiply(new BigDecimal(unit)).setScale(units.scale())
                        .toPlainString());
            }
        }
        copy();
        assertEquals(expected, column("n::text"));
    }

    @Test
    void decimalsBeyondALongAndNegativeOnesReadBackExactly() throws SQLException {
        final List<String> expected = new ArrayList<>();
        out.reset();
        final long[][] cases = {{Long.MAX_VALUE, 1_000_000, 2}, {Long.MIN_VALUE, 1, 4}, {-1, 1, 2}, {-123_456_789, 1, 3},
            {99_990_000, 1, 4}, {10_000, 1, 0}, {1, 1, 16}, {-7, 3, 17}};
        for (final long[] c : cases) {
            final CopyBinary.Units units = new CopyBinary.Units(c[1], (int) c[2]);
            out.number(expected.size()).decimal(c[0], units).nullValue().nullValue().nullValue();
            out.endRow();
            expected.add(BigDecimal.valueOf(c[0]).multiply(BigDecimal.valueOf(c[1])).movePointLeft((int) c[2])
                    .toPlainString());
        }
        copy();
        assertEquals(expected, column("n::text"));
    }

    @Test
    void timestampsReadBackToTheMicrosecondBeforeAndAfter2000() throws SQLException {
        final Random random = new Random(9);
        final List<String> expected = new ArrayList<>();
        out.reset();
        for (int i = 0; i < 2_000; i++) {
            final long micros = i == 0 ? 0 : i == 1 ? 946_684_800_000_000L : i == 2 ? -1
                    : (long) (random.nextDouble() * 8_000_000_000_000_000L);
            out.number(i).nullValue().timestamp(micros).nullValue().nullValue();
            out.endRow();
            expected.add(Long.toString(micros));
        }
        copy();
        assertEquals(expected, column("(extract(epoch FROM t) * 1000000)::bigint::text"));
    }

    @Test
    void textBooleansWholeNumbersAndNullsReadBackAsWritten() throws SQLException {
        final String[] texts = {"acct-1", "", "tab\there\\back\nslash", "Zürich € \uD834\uDD1E", null};
        out.reset();
        for (int i = 0; i < texts.length; i++) {
            out.number(i == 0 ? Long.MIN_VALUE : i == 1 ? Long.MAX_VALUE : -i).nullValue().nullValue().text(texts[i])
                    .bool(i % 2 == 0);
            out.endRow();
        }
        out.number(99).nullValue().nullValue().name(Thread.State.BLOCKED).nullValue();
        out.endRow();
        copy();
        final List<String> strings = new ArrayList<>(Arrays.asList(texts));
        strings.add("BLOCKED");
        assertEquals(strings, column("s"));
        assertEquals(List.of("true", "false", "true", "false", "true", ""), column("coalesce(b::text, '')"));
        assertEquals(List.of(Long.toString(Long.MIN_VALUE), Long.toString(Long.MAX_VALUE), "-2", "-3", "-4", "99"),
                column("id::text"));
    }

    @Test
    void aRowLeftOpenIsRefusedBeforeAnythingIsSent() {
        out.reset();
        out.number(1);
        assertThrows(IllegalStateException.class, out::finish);
    }

    @Test
    void aRowWithTheWrongNumberOfColumnsIsRefusedByTheServer() {
        out.reset();
        out.number(1).nullValue();
        out.endRow();
        assertThrows(SQLException.class, this::copy);
    }

    private void copy() throws SQLException {
        out.finish();
        try (Connection c = DB.connect()) {
            final CopyIn in = c.unwrap(PGConnection.class).getCopyAPI()
                    .copyIn("COPY copied (id, n, t, s, b) FROM STDIN WITH (FORMAT binary)");
            in.writeToCopy(out.bytes(), 0, out.length());
            in.endCopy();
        }
    }

    /** @return the expression for each row, in the order the rows were copied */
    private static List<String> column(final String expression) throws SQLException {
        final List<String> values = new ArrayList<>();
        DB.rows("SELECT " + expression + " FROM copied ORDER BY ctid").forEach(row -> values.add(row.get(0)));
        return values;
    }
}
