package io.orderentry.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Path;
import java.util.Properties;
import org.junit.jupiter.api.Test;

/** The typed reads every component's settings go through, and the wording of their errors. */
class ConfigReaderTest {

    private enum Mode { KEEP, DELETE, ARCHIVE }

    private static ConfigReader reader(final String... keysAndValues) {
        final Properties values = new Properties();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            values.setProperty(keysAndValues[i], keysAndValues[i + 1]);
        }
        return new ConfigReader(values);
    }

    @Test
    void aChoiceIsReadInAnyCaseAndAWrongOneIsRefusedListingTheChoicesInTheGivenOrder() {
        assertEquals(Mode.DELETE, reader("journal.retention", " Delete ").oneOf("journal.retention", Mode.values()));
        final ConfigException refused = assertThrows(ConfigException.class,
                () -> reader("journal.retention", "Shred").oneOf("journal.retention", Mode.values()));
        assertEquals("ORDERS_JOURNAL_RETENTION must be 'keep', 'delete' or 'archive', was 'shred'",
                refused.getMessage());
    }

    @Test
    void numbersAreBoundedAndAMissingSettingIsNamedWithItsVariable() {
        assertEquals(64, reader("input.ring.size", "64").powerOfTwo("input.ring.size", 16, 1 << 26));
        assertEquals("ORDERS_INPUT_RING_SIZE must be a power of two, was 100", assertThrows(ConfigException.class,
                () -> reader("input.ring.size", "100").powerOfTwo("input.ring.size", 16, 1 << 26)).getMessage());
        assertEquals("ORDERS_HTTP_PORT must be between 0 and 65535, was 70000", assertThrows(ConfigException.class,
                () -> reader("http.port", "70000").intValue("http.port", 0, 65_535)).getMessage());
        assertEquals("setting http.host (ORDERS_HTTP_HOST) is missing",
                assertThrows(ConfigException.class, () -> reader().string("http.host")).getMessage());
        assertEquals("ORDERS_WS_DEFLATE must be 'true' or 'false', was 'yes'",
                assertThrows(ConfigException.class, () -> reader("ws.deflate", "yes").bool("ws.deflate")).getMessage());
    }

    @Test
    void anEmptyDirectoryDefaultsToANameBesideTheAnchorDirectory() {
        final Path journal = Path.of("/var/lib/orders/journal");
        assertEquals(Path.of("/var/lib/orders/snapshots"), reader("snapshot.dir", "", "journal.dir", journal.toString())
                .directoryOr("snapshot.dir", "journal.dir", "snapshots"));
        assertEquals(Path.of("/srv/snap"), reader("snapshot.dir", "/srv/snap", "journal.dir", journal.toString())
                .directoryOr("snapshot.dir", "journal.dir", "snapshots"));
    }
}
