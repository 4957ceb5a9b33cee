package io.orderentry.http;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.DoubleSupplier;

/**
 * The figures served at {@code /metrics} in the Prometheus text format. Each gauge or counter reads a
 * value some stage publishes for other threads; suppliers must not block.
 */
public final class MetricsText {

    private record Metric(String name, String type, String help, String labels, DoubleSupplier value) {
    }

    private final List<Metric> metrics = new CopyOnWriteArrayList<>();

    /** Registers a monotonically increasing counter. */
    public void counter(final String name, final String help, final DoubleSupplier value) {
        metrics.add(new Metric(name, "counter", help, "", value));
    }

    /** Registers a gauge. */
    public void gauge(final String name, final String help, final DoubleSupplier value) {
        metrics.add(new Metric(name, "gauge", help, "", value));
    }

    /** Registers one labelled series of a counter, e.g. labels {@code result="PLACED"}. */
    public void counter(final String name, final String help, final String labels, final DoubleSupplier value) {
        metrics.add(new Metric(name, "counter", help, "{" + labels + "}", value));
    }

    /** @return every metric in the Prometheus text exposition format */
    public String render() {
        final StringBuilder out = new StringBuilder(4096);
        String previous = null;
        for (final Metric metric : metrics) {
            if (!metric.name().equals(previous)) {
                out.append("# HELP ").append(metric.name()).append(' ').append(metric.help()).append('\n');
                out.append("# TYPE ").append(metric.name()).append(' ').append(metric.type()).append('\n');
                previous = metric.name();
            }
            final double value = metric.value().getAsDouble();
            out.append(metric.name()).append(metric.labels()).append(' ');
            if (value == Math.rint(value) && Math.abs(value) < 1e15) {
                out.append((long) value);
            } else {
                out.append(value);
            }
            out.append('\n');
        }
        return out.toString();
    }
}
