package io.orderentry.config;

import java.util.Locale;

/** The environment variable of a setting, so that every component's errors name the variable an operator sets. */
public final class SettingNames {

    private SettingNames() {
    }

    /** @return the environment variable of a setting's key: {@code journal.dir} is {@code ORDERS_JOURNAL_DIR} */
    public static String envName(final String key) {
        return "ORDERS_" + key.toUpperCase(Locale.ROOT).replace('.', '_');
    }
}
