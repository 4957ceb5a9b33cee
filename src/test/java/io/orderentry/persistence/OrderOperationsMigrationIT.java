package io.orderentry.persistence;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.orderentry.testing.PostgresFixture;
import java.sql.SQLException;
import java.util.Arrays;
import java.util.List;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * V3 (order operations) on a database that already holds V2's rows: the rows stay as they were, every stored order
 * reads as self-trade prevention NONE, and the new event type and columns take rows while bad values are refused.
 */
class OrderOperationsMigrationIT {

    @RegisterExtension
    static final PostgresFixture DB = new PostgresFixture();

    @Test
    void aVersionTwoDatabaseWithRowsMigratesKeepingThemAndTakesTheOrderOperationsRows() throws Exception {
        final HikariConfig hikari = new HikariConfig();
        hikari.setJdbcUrl(DB.url());
        hikari.setUsername(DB.user());
        hikari.setPassword(DB.password());
        hikari.setMaximumPoolSize(2);
        try (HikariDataSource pool = new HikariDataSource(hikari)) {
            Flyway.configure().dataSource(pool).locations(DatabaseBootstrap.MIGRATIONS).target("2").load().migrate();
            DB.execute("INSERT INTO orders (order_id, account_id, symbol, side, order_type, time_in_force, post_only,"
                    + " price, quantity, status, filled_quantity, remaining_quantity, created_at, updated_at,"
                    + " last_sequence) VALUES (1, 'a', 'BTCUSD', 'BUY', 'LIMIT', 'GTC', false, 100.00, 1, 'NEW', 0, 1,"
                    + " now(), now(), 1)");
            DB.execute("INSERT INTO order_events (sequence, command_sequence, event_type, occurred_at, symbol,"
                    + " order_id, side, price, quantity, filled_quantity, status) VALUES (1, 1, 'ORDER_ACCEPTED',"
                    + " now(), 'BTCUSD', 1, 'BUY', 100.00, 1, 0, 'NEW')");

            // V5 turns order_events into a view over packed batches (PackedEventsMigrationIT): the rows written here
            // are what V3 and V4 left, so migrate only that far.
            Flyway.configure().dataSource(pool).locations(DatabaseBootstrap.MIGRATIONS).target("4").load().migrate();

            assertEquals(List.of(List.of("1", "NONE", "100.00")),
                    DB.rows("SELECT order_id, self_trade_prevention, price FROM orders"), "an order of before: NONE");
            assertEquals(List.of(Arrays.asList("ORDER_ACCEPTED", null, null, null)),
                    DB.rows("SELECT event_type, previous_price, previous_quantity, kept_priority FROM order_events"));

            DB.execute("INSERT INTO order_events (sequence, command_sequence, event_type, occurred_at, symbol,"
                    + " order_id, side, price, quantity, filled_quantity, previous_price, previous_quantity,"
                    + " kept_priority) VALUES (2, 2, 'ORDER_AMENDED', now(), 'BTCUSD', 1, 'BUY', 100.00, 0.5, 0,"
                    + " 100.00, 1, true)");
            DB.execute("UPDATE orders SET self_trade_prevention = 'EXPIRE_BOTH' WHERE order_id = 1");
            assertEquals(1, DB.number("SELECT count(*) FROM order_events WHERE event_type = 'ORDER_AMENDED'"));

            assertRefused("INSERT INTO order_events (sequence, command_sequence, event_type, occurred_at, symbol,"
                    + " order_id, side, quantity) VALUES (3, 3, 'ORDER_RENAMED', now(), 'BTCUSD', 1, 'BUY', 1)");
            assertRefused("UPDATE orders SET self_trade_prevention = 'EXPIRE_SOMETIMES' WHERE order_id = 1");
            assertRefused("UPDATE orders SET self_trade_prevention = NULL WHERE order_id = 1");
        }
    }

    private static void assertRefused(final String sql) {
        final SQLException refused = assertThrows(SQLException.class, () -> DB.execute(sql), sql);
        assertTrue(refused.getSQLState().startsWith("23"), "an integrity constraint: " + refused.getMessage());
    }
}
