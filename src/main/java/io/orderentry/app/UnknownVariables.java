package io.orderentry.app;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Finds the {@code ORDERS_*} environment variables that name no setting, so that a misspelt one
 * ({@code ORDERS_JORNAL_SYNC}) is reported at start instead of silently leaving the default in force. Each is named
 * with the setting nearest to it by edit distance. A report, never a refusal: the service still starts.
 *
 * <p>Stateless; runs once, on the thread that loads the configuration.
 */
final class UnknownVariables {

    private static final String PREFIX = "ORDERS_";

    /**
     * Variables that the project's own scripts and tests read (benchmarks, load tests, the PostgreSQL fixture).
     * They are not settings, but they reach the service whenever a script starts it from its own environment, so
     * they are not reported.
     */
    private static final Set<String> TOOL_VARIABLES = Set.of(
            "ORDERS_JAR", "ORDERS_RUN_ID", "ORDERS_ACK_DIR", "ORDERS_LOADTEST_DIR",
            "ORDERS_LOAD_AUTH", "ORDERS_LOAD_KEYS", "ORDERS_LOAD_KEY_COUNT", "ORDERS_LOAD_ADMIN_KEY",
            "ORDERS_LOAD_BATCH_SIZE",
            "ORDERS_TEST_DB_URL", "ORDERS_TEST_DB_USER", "ORDERS_TEST_DB_PASSWORD");

    private UnknownVariables() {
    }

    /**
     * @param environment the process environment
     * @param settings the variable of every setting
     * @return one line per unknown variable, in name order, e.g.
     *     {@code ORDERS_JORNAL_SYNC is not a setting (did you mean ORDERS_JOURNAL_SYNC?); it is ignored}
     */
    static List<String> report(final Map<String, String> environment, final Set<String> settings) {
        final List<String> lines = new ArrayList<>();
        for (final String name : new TreeSet<>(environment.keySet())) {
            if (name.startsWith(PREFIX) && !settings.contains(name) && !TOOL_VARIABLES.contains(name)) {
                lines.add(name + " is not a setting (did you mean " + closest(name, settings) + "?); it is ignored");
            }
        }
        return lines;
    }

    /** @return the setting nearest to {@code name}; of equally near ones, the first in name order */
    private static String closest(final String name, final Set<String> settings) {
        String best = null;
        int bestDistance = Integer.MAX_VALUE;
        for (final String setting : new TreeSet<>(settings)) {
            final int distance = distance(name, setting);
            if (distance < bestDistance) {
                best = setting;
                bestDistance = distance;
            }
        }
        return best;
    }

    /** Levenshtein distance: the fewest single-character insertions, deletions and substitutions from a to b. */
    static int distance(final String a, final String b) {
        int[] previous = new int[b.length() + 1];
        int[] current = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            previous[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            current[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                final int substitution = previous[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
                current[j] = Math.min(substitution, Math.min(previous[j], current[j - 1]) + 1);
            }
            final int[] swap = previous;
            previous = current;
            current = swap;
        }
        return previous[b.length()];
    }
}
