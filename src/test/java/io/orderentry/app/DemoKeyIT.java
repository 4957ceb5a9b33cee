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
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A first start of the real jar with authentication on and no keys file (what {@code docker compose up} does on a
 * fresh volume): it creates the file beside the journal directory with one key for account {@code demo}, writes that
 * key's secret to {@code demo-key} beside it, readable by its owner only, and names that file in the log without ever
 * printing the secret; the secret places orders for {@code demo}. A second start makes no new key.
 */
class DemoKeyIT {

    private static final Pattern SECRET = Pattern.compile("k[0-9a-f]{16}\\.[A-Za-z0-9_-]{43}");

    @TempDir
    Path dir;

    @Test
    void aFirstStartWritesTheDemoSecretToAPrivateFileNamedInTheLogAndNeverLogsIt() throws Exception {
        final Path keys = dir.resolve("keys");   // the default: beside ORDERS_JOURNAL_DIR (dir/journal)
        final Path demoKey = dir.resolve("demo-key");
        final String secret;
        try (ServiceProcess service = ServiceProcess.start(dir, Map.of("ORDERS_AUTH", "keys"), "first")) {
            assertTrue(Files.isRegularFile(demoKey), "the secret's file beside the keys file");
            assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(demoKey)),
                    "only the service's user may read the secret");
            secret = Files.readString(demoKey).strip();   // what `export KEY=$(cat data/demo-key)` gives
            assertTrue(SECRET.matcher(secret).matches(), "a secret, alone on its line: " + secret);
            assertFalse(service.log().contains(secret), "the secret is not in the log:\n" + service.log());
            assertFalse(SECRET.matcher(service.log()).find(), "no secret at all in the log:\n" + service.log());
            assertTrue(service.log().contains("Its secret is in " + demoKey.toAbsolutePath()), "the log names the"
                    + " file:\n" + service.log());
            assertTrue(Files.isRegularFile(keys), "the keys file beside the journal directory");
            assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(keys)));
            assertFalse(Files.readString(keys).contains(secret), "the keys file keeps only the hash");

            final Answer placed = new ApiClient(service.port(), secret).post("/api/v1/orders",
                    "{\"clientOrderId\":\"demo-1\",\"symbol\":\"BTCUSD\",\"side\":\"BUY\",\"type\":\"LIMIT\","
                            + "\"price\":\"50000.00\",\"quantity\":\"0.1\"}");
            assertEquals(201, placed.status(), placed.body());
            assertEquals("demo", placed.json().get("accountId").asText(), "the account is the key's");
            service.terminate();
        }
        Files.delete(demoKey);   // as the log advises once the secret is kept elsewhere
        try (ServiceProcess again = ServiceProcess.start(dir, Map.of("ORDERS_AUTH", "keys"), "second")) {
            assertFalse(Files.exists(demoKey), "a later start makes no new key and writes no secret");
            assertFalse(again.log().contains("demo-key"), again.log());
            assertEquals(200, new ApiClient(again.port(), secret).get("/api/v1/orders").status(),
                    "the demo key still works after a restart");
        }
    }
}
