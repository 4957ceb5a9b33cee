package io.orderentry.persistence;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.orderentry.testing.DatabaseVersusApi;
import io.orderentry.testing.MixedOrderLoad;
import io.orderentry.testing.PostgresFixture;
import io.orderentry.testing.RunningService;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** Once idle, the database holds what the API answered, row for row. */
class DatabaseMatchesApiIT {

    @RegisterExtension
    static final PostgresFixture DB = new PostgresFixture();

    @TempDir
    Path dir;

    @Test
    void onceIdleOrdersAndTradesInTheDatabaseMatchTheApiRowForRow() throws Exception {
        try (RunningService service = RunningService.start(dir, DB.env())) {
            final MixedOrderLoad load = new MixedOrderLoad(service.client(), 4, 0);
            final int placed = load.awaitPlaced(3_000, 120);
            load.stop();
            assertTrue(placed >= 3_000, "only " + placed + " orders were placed");
            assertEquals(0, load.unexpectedAnswers(), () -> "unexpected answers: " + load.someUnexpectedAnswers());

            DatabaseVersusApi.awaitCaughtUp(service.client(), Duration.ofSeconds(60));
            final DatabaseVersusApi.Summary compared = DatabaseVersusApi.assertSame(service.client(), DB);
            assertEquals(load.placed().keySet().stream().mapToLong(Long::longValue).max().orElseThrow(),
                    compared.orders(), "every placed order has its row");
            assertTrue(compared.trades() > 100, "the load should trade: " + compared);
            assertTrue(load.cancels() > 50, "the load should cancel: " + load.cancels());
            assertTrue(load.amends() > 50, "the load should amend: " + load.amends());
            assertTrue(load.cancelAlls() > 3, "the load should cancel all: " + load.cancelAlls());
        }
    }
}
