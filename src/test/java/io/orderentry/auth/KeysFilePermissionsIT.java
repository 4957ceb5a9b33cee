package io.orderentry.auth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.orderentry.testing.ServiceProcess;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The real jar refuses to start on a keys file that other users may read, and says how to fix it. */
class KeysFilePermissionsIT {

    @TempDir
    Path dir;

    @Test
    void aStartOnAKeysFileOthersMayReadExitsWithStatusTwoNamingTheFileItsModeAndChmod600() throws Exception {
        final Path keys = dir.resolve("keys");
        ServiceProcess.createKey(keys, "acct-1");
        Files.setPosixFilePermissions(keys, PosixFilePermissions.fromString("rw-r--r--"));
        try (ServiceProcess service = ServiceProcess.launch(dir, Map.of("ORDERS_AUTH", "keys",
                "ORDERS_AUTH_KEYS_FILE", keys.toString()), "exposed")) {
            assertEquals(2, service.awaitExit(Duration.ofSeconds(60)), service.log());
            assertTrue(service.log().contains("invalid configuration: the API keys file " + keys + " may be read or"
                    + " written by other users than its owner (mode 0644, rw-r--r--)"), service.log());
            assertTrue(service.log().contains("chmod 600 " + keys), service.log());
        }
    }
}
