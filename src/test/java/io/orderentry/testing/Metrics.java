package io.orderentry.testing;

/** Reads one figure from {@code /metrics}. */
public final class Metrics {

    private Metrics() {
    }

    /** @return the value of an unlabelled metric, or NaN if it is not there */
    public static double value(final ApiClient api, final String name) {
        for (final String line : api.get("/metrics").body().split("\n")) {
            if (line.startsWith(name + " ")) {
                return Double.parseDouble(line.substring(name.length() + 1).trim());
            }
        }
        return Double.NaN;
    }
}
