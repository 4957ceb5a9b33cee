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

    /**
     * @param series a series as {@code /metrics} renders it, name and labels ({@code orders_disk_free_bytes{dir="spool"}})
     * @return its value in the {@code /metrics} text {@code metrics}; fails when it is not there
     */
    public static double series(final String metrics, final String series) {
        for (final String line : metrics.split("\n")) {
            if (line.startsWith(series + " ")) {
                return Double.parseDouble(line.substring(series.length() + 1).trim());
            }
        }
        throw new AssertionError(series + " is not in /metrics:\n" + metrics);
    }
}
