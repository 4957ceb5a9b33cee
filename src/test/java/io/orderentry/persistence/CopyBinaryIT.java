package io.orderentry.persistence;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

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

    @Test
    void arraysOfEveryElementTypeWithNullsReadBackAsWritten() throws SQLException {
        DB.execute("DROP TABLE IF EXISTS packed; CREATE TABLE packed (id BIGINT, ns BIGINT[], ds NUMERIC[],"
                + " ts TIMESTAMPTZ[], ss TEXT[], bs BOOLEAN[])");
        final CopyBinary.Units cents = CopyBinary.Units.of(new BigDecimal("0.01"));
        out.reset();
        out.number(1);
        out.beginArray(CopyBinary.BIGINT_OID, 3).number(Long.MIN_VALUE).nullValue().number(7).endArray();
        out.beginArray(CopyBinary.NUMERIC_OID, 2).decimal(5_000_012, cents).nullValue().endArray();
        out.beginArray(CopyBinary.TIMESTAMPTZ_OID, 1).timestamp(946_684_800_000_001L).endArray();
        out.beginArray(CopyBinary.TEXT_OID, 3).text("a,b").nullValue().name(Thread.State.NEW).endArray();
        out.beginArray(CopyBinary.BOOLEAN_OID, 2).bool(true).bool(false).endArray();
        out.endRow();
        out.number(2);
        for (final int oid : new int[] {CopyBinary.BIGINT_OID, CopyBinary.NUMERIC_OID, CopyBinary.TIMESTAMPTZ_OID,
            CopyBinary.TEXT_OID, CopyBinary.BOOLEAN_OID}) {
            out.beginArray(oid, 0).endArray();
        }
        out.endRow();
        copy("COPY packed (id, ns, ds, ts, ss, bs) FROM STDIN WITH (FORMAT binary)");
        assertEquals(List.of(
                List.of("1", "{-9223372036854775808,NULL,7}", "{50000.12,NULL}", "{946684800000001}",
                        "{\"a,b\",NULL,NEW}", "{t,f}"),
                List.of("2", "{}", "{}", "{}", "{}", "{}")),
                DB.rows("SELECT id, ns::text, ds::text, coalesce((SELECT array_agg((extract(epoch FROM x) * 1000000)"
                        + "::bigint) FROM unnest(ts) x)::text, '{}'), ss::text, bs::text FROM packed ORDER BY id"));
    }

    @Test
    void anArrayOfTheWrongElementTypeIsRefusedByTheServer() throws SQLException {
        DB.execute("DROP TABLE IF EXISTS packed; CREATE TABLE packed (id BIGINT, ns BIGINT[])");
        out.reset();
        out.number(1).beginArray(CopyBinary.TEXT_OID, 1).text("1").endArray().endRow();
        final SQLException refused = assertThrows(SQLException.class,
                () -> copy("COPY packed (id, ns) FROM STDIN WITH (FORMAT binary)"));
        assertTrue(refused.getMessage().contains("array element type"), refused.getMessage());
        assertEquals(0, DB.number("SELECT count(*) FROM packed"));
    }

    @Test
    void anArrayWithMoreOrFewerElementsThanDeclaredOrLeftOpenIsRefusedBeforeAnythingIsSent() {
        out.reset();
        out.number(1).beginArray(CopyBinary.BIGINT_OID, 2).number(1);
        assertThrows(IllegalStateException.class, out::endArray, "one of two");
        out.number(2).number(3);
        assertThrows(IllegalStateException.class, out::endArray, "three of two");
        out.reset();
        out.number(1).beginArray(CopyBinary.BIGINT_OID, 1).number(1);
        assertThrows(IllegalStateException.class, out::endRow, "a row with an open array");
        assertThrows(IllegalStateException.class, () -> out.beginArray(CopyBinary.BIGINT_OID, 1), "nested");
    }

    private void copy() throws SQLException {
        copy("COPY copied (id, n, t, s, b) FROM STDIN WITH (FORMAT binary)");
    }

    private void copy(final String sql) throws SQLException {
        out.finish();
        try (Connection c = DB.connect()) {
            final CopyIn in = c.unwrap(PGConnection.class).getCopyAPI().copyIn(sql);
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
