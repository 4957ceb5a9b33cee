package io.orderentry.ops;

import java.util.concurrent.atomic.AtomicLongArray;

/**
 * How long each answered order spent in each hand-over of the order path, as Prometheus histograms
 * ({@code orders_stage_latency_seconds}, one series per {@link Stage}): the evidence, stage by stage, of where an
 * answer's time goes (issue 33, item 4), and what an operator's dashboard shows beside the answer latency.
 *
 * <p>Each order's times are taken where it already passes: the edge when it publishes the command, the journal
 * thread when it takes it, the matcher when it starts it, the reply stage when it answers it and hands the batch's
 * answers to the event loop, and the event loop when it runs them. Only commands placed, cancelled, amended or
 * cancelled-all by a waiting client in single-node mode carry them (in cluster mode a command reaches the matcher
 * through the cluster's log, which does not carry the edge's clock).
 *
 * <p>Recording is a scan of {@link #BOUNDS_NANOS} and two atomic adds: no allocation, no lock, no Micrometer call
 * on a stage's thread. Any thread may record and render.
 */
public final class StageLatency {

    /** The hand-overs of the order path, in the order an order passes them. */
    public enum Stage {
        /** The edge published the command; the journal thread takes it: the input ring's queue and wake-up. */
        RING("ring"),
        /** The journal thread takes the command; the matcher starts it: its write, the batch's force, the wake-up. */
        JOURNAL("journal"),
        /** The matcher starts the command; the reply stage answers it: matching, output ring, order view, audit. */
        OUTPUT("output"),
        /** The reply stage hands the batch's answers over; the request's event loop runs them. */
        EVENT_LOOP("event_loop");

        private final String label;

        Stage(final String label) {
            this.label = label;
        }

        /** @return the value of the {@code stage} label */
        public String label() {
            return label;
        }
    }

    /** Bucket upper bounds, 1-1.5-2-3-5-7 per decade from 10 µs to 1 s; above the last is {@code +Inf}. */
    static final long[] BOUNDS_NANOS = bounds();

    private static final Stage[] STAGES = Stage.values();
    /** Per stage: one count per bucket (non-cumulative), then the sum of nanoseconds. */
    private static final int STRIDE = BOUNDS_NANOS.length + 2;

    private final AtomicLongArray cells = new AtomicLongArray(STAGES.length * STRIDE);

    /** Records {@code nanos} spent in {@code stage}; a negative time (a clock read out of order) counts as 0. */
    public void record(final Stage stage, final long nanos) {
        final long value = Math.max(0, nanos);
        final int base = stage.ordinal() * STRIDE;
        int bucket = 0;
        while (bucket < BOUNDS_NANOS.length && value > BOUNDS_NANOS[bucket]) {
            bucket++;
        }
        cells.getAndIncrement(base + bucket);
        cells.getAndAdd(base + STRIDE - 1, value);
    }

    /**
     * Records one answered command's three engine-side hand-overs from the clock readings it carried; records
     * nothing when any reading is missing (0: a replayed or cluster command).
     */
    public void recordCommand(final long edgeNanos, final long journalNanos, final long matchNanos,
                              final long answeredNanos) {
        if (edgeNanos == 0 || journalNanos == 0 || matchNanos == 0) {
            return;
        }
        record(Stage.RING, journalNanos - edgeNanos);
        record(Stage.JOURNAL, matchNanos - journalNanos);
        record(Stage.OUTPUT, answeredNanos - matchNanos);
    }

    /** @return how many times {@code stage} was recorded */
    public long count(final Stage stage) {
        final int base = stage.ordinal() * STRIDE;
        long count = 0;
        for (int i = 0; i <= BOUNDS_NANOS.length; i++) {
            count += cells.get(base + i);
        }
        return count;
    }

    /** @return {@link #render(StringBuilder)} on its own */
    public String render() {
        final StringBuilder out = new StringBuilder();
        render(out);
        return out.toString();
    }

    /** Appends {@code orders_stage_latency_seconds} in the Prometheus text format: cumulative buckets, sum, count. */
    public void render(final StringBuilder out) {
        out.append("# HELP orders_stage_latency_seconds Time each answered order spent in each hand-over of the"
                + " order path (single-node mode)\n");
        out.append("# TYPE orders_stage_latency_seconds histogram\n");
        for (final Stage stage : STAGES) {
            final int base = stage.ordinal() * STRIDE;
            long cumulative = 0;
            for (int i = 0; i <= BOUNDS_NANOS.length; i++) {
                cumulative += cells.get(base + i);
                out.append("orders_stage_latency_seconds_bucket{stage=\"").append(stage.label).append("\",le=\"")
                        .append(i < BOUNDS_NANOS.length ? Double.toString(BOUNDS_NANOS[i] / 1e9) : "+Inf")
                        .append("\"} ").append(cumulative).append('\n');
            }
            out.append("orders_stage_latency_seconds_sum{stage=\"").append(stage.label).append("\"} ")
                    .append(cells.get(base + STRIDE - 1) / 1e9).append('\n');
            out.append("orders_stage_latency_seconds_count{stage=\"").append(stage.label).append("\"} ")
                    .append(cumulative).append('\n');
        }
    }

    private static long[] bounds() {
        final long[] steps = {10, 15, 20, 30, 50, 70};
        final long[] bounds = new long[5 * steps.length + 1];
        long decade = 1_000;   // 1 µs in nanoseconds; the first bound is 10 µs
        int n = 0;
        for (int d = 0; d < 5; d++) {
            for (final long step : steps) {
                bounds[n++] = step * decade;
            }
            decade *= 10;
        }
        bounds[n] = 1_000_000_000L;
        return bounds;
    }
}
