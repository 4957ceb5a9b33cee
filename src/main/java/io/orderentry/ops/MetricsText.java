package io.orderentry.ops;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.jvm.ClassLoaderMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.core.instrument.binder.system.UptimeMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.vertx.core.buffer.Buffer;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.DoubleSupplier;

/**
 * The figures served at {@code /metrics}, in the Prometheus text format, through Micrometer. Stages
 * publish their figures as plain fields readable from any thread; this class registers functions that
 * read them when scraped, so no stage ever calls into Micrometer on its hot path. JVM, GC, thread and
 * CPU metrics are bound at construction.
 */
public final class MetricsText {

    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    /**
     * Micrometer holds function-based meters' state weakly; a supplier lambda nobody else references
     * would be collected and its meter would silently read NaN. Every supplier is kept here.
     */
    private final List<DoubleSupplier> suppliers = new CopyOnWriteArrayList<>();
    private final ThreadCosts threadCosts = new ThreadCosts();
    private final StageLatency stageLatency = new StageLatency();
    private JvmGcMetrics gcMetrics;
    private volatile Scrape lastScrape;

    public MetricsText() {
        new JvmMemoryMetrics().bindTo(registry);
        gcMetrics = new JvmGcMetrics();
        gcMetrics.bindTo(registry);
        new JvmThreadMetrics().bindTo(registry);
        new ClassLoaderMetrics().bindTo(registry);
        new ProcessorMetrics().bindTo(registry);
        new UptimeMetrics().bindTo(registry);
    }

    /** Registers a monotonically increasing counter read from {@code value}. */
    public void counter(final String name, final String help, final DoubleSupplier value) {
        counter(name, help, "", value);
    }

    /**
     * Registers one labelled series of a counter.
     *
     * @param labels Prometheus-style labels such as {@code result="PLACED",side="BUY"}, or empty
     */
    public void counter(final String name, final String help, final String labels, final DoubleSupplier value) {
        suppliers.add(value);
        FunctionCounter.builder(baseName(name), value, DoubleSupplier::getAsDouble).description(help)
                .tags(tags(labels)).register(registry);
    }

    /** Registers a gauge read from {@code value}. */
    public void gauge(final String name, final String help, final DoubleSupplier value) {
        gauge(name, help, "", value);
    }

    /** Registers one labelled series of a gauge. */
    public void gauge(final String name, final String help, final String labels, final DoubleSupplier value) {
        suppliers.add(value);
        Gauge.builder(name, value, DoubleSupplier::getAsDouble).description(help).tags(tags(labels))
                .strongReference(true).register(registry);
    }

    /** @return the registry, for timers and distributions recorded directly (HTTP latency) */
    public MeterRegistry registry() {
        return registry;
    }

    /**
     * @param maxAgeMillis how old a rendering may be; 0 renders anew every time
     * @return {@link #render} as bytes, rendered anew only once the last rendering is older than {@code maxAgeMillis}:
     *         a scrape renders every meter (a few milliseconds), so without the bound any client could keep the event
     *         loops that serve orders busy rendering. Any thread; two threads may both render at the turn of an age,
     *         which only costs the time.
     */
    public Buffer scrape(final long maxAgeMillis) {
        final long now = System.nanoTime();
        final Scrape last = lastScrape;
        if (last != null && maxAgeMillis > 0 && now - last.nanos() < maxAgeMillis * 1_000_000L) {
            return last.text();
        }
        final Scrape fresh = new Scrape(Buffer.buffer(render()), now);
        lastScrape = fresh;
        return fresh.text();
    }

    /** A rendering and when it was made. */
    private record Scrape(Buffer text, long nanos) {
    }

    /** @return the order path's per-stage histograms, which the stages record into and {@link #render} shows */
    public StageLatency stageLatency() {
        return stageLatency;
    }

    /** @return every metric in the Prometheus text exposition format, the stage latencies and per-thread costs last */
    public String render() {
        final StringBuilder out = new StringBuilder(registry.scrape());
        stageLatency.render(out);
        threadCosts.render(out);
        return out.toString();
    }

    /** Stops the GC listener; called once at shutdown. */
    public void close() {
        if (gcMetrics != null) {
            gcMetrics.close();
            gcMetrics = null;
        }
        registry.close();
    }

    /** The Prometheus registry appends {@code _total} to counters itself. */
    private static String baseName(final String name) {
        return name.endsWith("_total") ? name.substring(0, name.length() - "_total".length()) : name;
    }

    private static Tags tags(final String labels) {
        Tags tags = Tags.empty();
        if (labels.isBlank()) {
            return tags;
        }
        for (final String pair : labels.split(",")) {
            final int eq = pair.indexOf('=');
            if (eq <= 0) {
                throw new IllegalArgumentException("labels must be key=\"value\" pairs, was " + labels);
            }
            tags = tags.and(pair.substring(0, eq).trim(), pair.substring(eq + 1).trim().replace("\"", ""));
        }
        return tags;
    }
}
