package io.orderentry.config;

import java.nio.file.Path;
import java.util.Locale;
import java.util.Properties;

/**
 * The settings of one service instance, read by key with their type and bounds checked: what each component's
 * {@code XConfig.from(reader)} parses its own record from. Every error is a {@link ConfigException} that names the
 * setting's environment variable ({@link SettingNames}) and what is expected.
 *
 * <p>Holds the three layers already merged (defaults, file, environment; {@code app.ConfigLoader}); values are
 * trimmed. Used once, on the starting thread.
 */
public final class ConfigReader {

    private final Properties values;

    /** @param values every setting by key, each layer already applied */
    public ConfigReader(final Properties values) {
        this.values = values;
    }

    /** @return the trimmed value of a key; throws if the key is not a setting */
    public String string(final String key) {
        final String value = values.getProperty(key);
        if (value == null) {
            throw new ConfigException("setting " + key + " (" + SettingNames.envName(key) + ") is missing");
        }
        return value.trim();
    }

    /** @return the value of a key in lower case, for settings that are one of a few words */
    public String lowerCase(final String key) {
        return string(key).toLowerCase(Locale.ROOT);
    }

    /**
     * @param choices the accepted values, in the order the error message lists them
     * @return the choice whose name the key's value is, in any case: {@code fsync} for {@code FSYNC}
     */
    @SafeVarargs
    public final <E extends Enum<E>> E oneOf(final String key, final E... choices) {
        final String value = lowerCase(key);
        final StringBuilder expected = new StringBuilder();
        for (int i = 0; i < choices.length; i++) {
            final String name = choices[i].name().toLowerCase(Locale.ROOT);
            if (name.equals(value)) {
                return choices[i];
            }
            expected.append(i == 0 ? "" : i == choices.length - 1 ? " or " : ", ").append('\'').append(name)
                    .append('\'');
        }
        throw new ConfigException(SettingNames.envName(key) + " must be " + expected + ", was '" + value + "'");
    }

    /** @return a whole number from {@code min} to {@code max} */
    public long longValue(final String key, final long min, final long max) {
        final String text = string(key);
        final long value;
        try {
            value = Long.parseLong(text);
        } catch (final NumberFormatException e) {
            throw new ConfigException(SettingNames.envName(key) + " must be a whole number, was '" + text + "'");
        }
        if (value < min || value > max) {
            throw new ConfigException(SettingNames.envName(key) + " must be between " + min + " and " + max + ", was "
                    + value);
        }
        return value;
    }

    /** @return a whole number from {@code min} to {@code max} */
    public int intValue(final String key, final int min, final int max) {
        return (int) longValue(key, min, max);
    }

    /** @return a power of two from {@code min} to {@code max} */
    public int powerOfTwo(final String key, final int min, final int max) {
        final int value = intValue(key, min, max);
        if (Integer.bitCount(value) != 1) {
            throw new ConfigException(SettingNames.envName(key) + " must be a power of two, was " + value);
        }
        return value;
    }

    /** @return {@code true} or {@code false}, in any case */
    public boolean bool(final String key) {
        final String value = lowerCase(key);
        return switch (value) {
            case "true" -> true;
            case "false" -> false;
            default -> throw new ConfigException(SettingNames.envName(key) + " must be 'true' or 'false', was '" + value
                    + "'");
        };
    }

    /**
     * @return the directory a key names or, when it is left empty, {@code name} beside the directory that
     *     {@code anchorKey} names (e.g. {@code snapshots} beside the journal's directory)
     */
    public Path directoryOr(final String key, final String anchorKey, final String name) {
        final String directory = string(key);
        return directory.isBlank() ? parentOf(Path.of(string(anchorKey))).resolve(name) : Path.of(directory);
    }

    /** @return the parent of a directory, as an absolute path (the directory itself if it has none) */
    public static Path parentOf(final Path directory) {
        final Path absolute = directory.toAbsolutePath().normalize();
        return absolute.getParent() == null ? absolute : absolute.getParent();
    }
}
