package io.orderentry.ops;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.util.Map;
import java.util.TreeMap;

/**
 * What each live JVM thread has cost since it started: CPU time and bytes allocated on the heap, summed by thread
 * name, in the Prometheus text format. It is what {@code bench/stages.sh} divides by the orders of a load window to
 * get each stage's CPU and allocation per order.
 *
 * <p>Everything is read when {@code /metrics} is scraped; nothing is recorded on any stage's hot path. A thread
 * that has ended no longer counts, so the figures are meant for the long-lived stage and event-loop threads.
 *
 * <p>Thread-safe; called on an event loop.
 */
final class ThreadCosts {

    private final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    private final com.sun.management.ThreadMXBean allocation =
            threads instanceof com.sun.management.ThreadMXBean hotspot ? hotspot : null;

    ThreadCosts() {
        if (threads.isThreadCpuTimeSupported() && !threads.isThreadCpuTimeEnabled()) {
            threads.setThreadCpuTimeEnabled(true);
        }
        if (allocation != null && allocation.isThreadAllocatedMemorySupported()
                && !allocation.isThreadAllocatedMemoryEnabled()) {
            allocation.setThreadAllocatedMemoryEnabled(true);
        }
    }

    /** Appends {@code orders_thread_cpu_seconds_total} and {@code orders_thread_allocated_bytes_total} to {@code out}. */
    void render(final StringBuilder out) {
        final Map<String, long[]> byName = new TreeMap<>();
        for (final long id : threads.getAllThreadIds()) {
            final ThreadInfo info = threads.getThreadInfo(id);
            if (info == null) {
                continue;
            }
            final long cpu = threads.isThreadCpuTimeSupported() ? threads.getThreadCpuTime(id) : -1;
            final long bytes = allocation == null ? -1 : allocation.getThreadAllocatedBytes(id);
            final long[] sums = byName.computeIfAbsent(info.getThreadName(), name -> new long[2]);
            sums[0] += Math.max(cpu, 0);
            sums[1] += Math.max(bytes, 0);
        }
        out.append("# HELP orders_thread_cpu_seconds_total CPU time of the live JVM threads of this name\n")
                .append("# TYPE orders_thread_cpu_seconds_total counter\n");
        byName.forEach((name, sums) -> out.append("orders_thread_cpu_seconds_total{thread=\"").append(escape(name))
                .append("\"} ").append(sums[0] / 1e9).append('\n'));
        out.append("# HELP orders_thread_allocated_bytes_total Heap bytes allocated by the live JVM threads of this"
                        + " name\n")
                .append("# TYPE orders_thread_allocated_bytes_total counter\n");
        byName.forEach((name, sums) -> out.append("orders_thread_allocated_bytes_total{thread=\"")
                .append(escape(name)).append("\"} ").append(sums[1]).append('\n'));
    }

    private static String escape(final String name) {
        return name.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n");
    }
}
