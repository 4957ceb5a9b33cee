package io.orderentry.config;

/** A configuration value is missing or invalid; the message names the setting and says what is expected. */
public final class ConfigException extends RuntimeException {

    public ConfigException(final String message) {
        super(message);
    }
}
