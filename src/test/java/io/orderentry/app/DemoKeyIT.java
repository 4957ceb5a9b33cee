package io.orderentry.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.orderentry.testing.ApiClient;
import io.orderentry.testing.ApiClient.Answer;
import io.orderentry.testing.ServiceProcess;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A first start of the real jar with authentication on and no keys file (what {@code docker compose up} does on a
 * fresh volume): it creates the file beside the journal directory with one key for account {@code demo}, prints that
 * key's secret in its log once, and the secret places orders for {@code demo}. A second start prints no secret.
 */
class DemoKeyIT {

    private static final Pattern SECRET = Pattern.compile("k[0-9a-f]{16}\\.[A-Za-z0-9_-]{43}");

    @TempDir
    Path dir;

    @Test
    void aFirstStartWithoutAKeysFileLogsADemoKeyThatPlacesOrdersAndALaterStartDoesNot() throws Exception {
        final Path keys = dir.resolve("keys");   // the default: beside ORDERS_JOURNAL_DIR (dir/journal)
        final String secret;
        try (ServiceProcess service = ServiceProcess.start(dir, Map.of("ORDERS_AUTH", "keys"), "first")) {
            final Matcher printed = SECRET.matcher(service.log());
            assertTrue(printed.find(), "the demo key's secret is in the log:\n" + service.log());
            secret = printed.group();
            assertTrue(Files.isRegularFile(keys), "the keys file beside the journal directory");
            assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(keys)));
            assertFalse(Files.readString(keys).contains(secret), "the file keeps only the hash");

            final Answer placed = new ApiClient(service.port(), secret).post("/api/v1/orders",
                    "{\"clientOrderId\":\"demo-1\",\"symbol\":\"BTCUSD\",\"side\":\"BUY\",\"type\":\"LIMIT\","
                            + "\"price\":\"50000.00\",\"quantity\":\"0.1\"}");
            assertEquals(201, placed.status(), placed.body());
            assertEquals("demo", placed.json().get("accountId").asText(), "the account is the key's");
            service.terminate();
        }
        try (ServiceProcess again = ServiceProcess.start(dir, Map.of("ORDERS_AUTH", "keys"), "second")) {
            assertFalse(SECRET.matcher(again.log()).find(), "a secret is shown only on the start that made it:\n"
                    + again.log());
            assertEquals(200, new ApiClient(again.port(), secret).get("/api/v1/orders").status(),
                    "the demo key still works after a restart");
        }
    }
}
