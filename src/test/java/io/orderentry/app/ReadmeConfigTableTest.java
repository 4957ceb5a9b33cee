package io.orderentry.app;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.orderentry.config.SettingNames;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** The README's configuration table must name every setting the service reads. */
class ReadmeConfigTableTest {

    @Test
    void everyConfigurationKeyHasARowInTheReadme() throws Exception {
        final String readme = Files.readString(Path.of("README.md"));
        for (final String key : ConfigLoader.defaults().stringPropertyNames()) {
            final String variable = SettingNames.envName(key);
            assertTrue(readme.contains("| `" + variable + "` |"), variable + " is missing from the README's table");
        }
        assertTrue(readme.contains("| `" + ConfigLoader.CONFIG_FILE_ENV + "` |"));
    }
}
