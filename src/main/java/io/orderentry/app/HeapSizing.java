package io.orderentry.app;

/**
 * The heap the configured limits need when the books are full, from measured costs per held item (bench/memory.sh
 * and the 5,000,000-record history in loadtest/RESULTS.md, "Issue 13"): what a start compares with the JVM's
 * maximum heap, so that a service sized too small says so at start instead of running out of memory at its busiest
 * hour (and again in the replay after it).
 */
final class HeapSizing {

    /** A resting order: the engine's order, its level entry, and the order view's open order (529 B measured, 477 B
     *  since the open lists moved into the view's slots). */
    static final long RESTING_ORDER_BYTES = 560;
    /**
     * A final order kept by the order view, with its fills: 250 B measured, plus the 8 B of open-order links every
     * view slot has had since the open lists moved into the slots (2026-11-25).
     */
    static final long FINAL_ORDER_BYTES = 260;
    /** A pair in the engine's dedup window (its strings and ring entries) and the view's copy of its id. */
    static final long DEDUP_ENTRY_BYTES = 150;
    /** The rest: rings, buffers, market data, HTTP, class data on the heap. */
    static final long BASE_BYTES = 320L << 20;

    private HeapSizing() {
    }

    /**
     * @return the heap needed when every limit is reached: the engine's resting orders, the order view's retained
     *         final orders plus the ones it keeps for retries (at most the dedup window), the dedup window; twice all
     *         that when the snapshot writer keeps its copy
     */
    static long neededBytes(final Config config) {
        final long window = config.engine().dedupWindow();
        final long state = config.engine().maxRestingOrders() * RESTING_ORDER_BYTES
                + (config.query().retainedFinalOrders() + window) * FINAL_ORDER_BYTES
                + window * DEDUP_ENTRY_BYTES;
        return BASE_BYTES + (config.snapshots().enabled() ? 2 * state : state);
    }

    /**
     * @return whether {@code maxHeapBytes} holds what the limits need: then the engine reserves its order storage at
     *         start ({@code Matcher#reserveStorage}), else it grows it as the books grow
     */
    static boolean fits(final Config config, final long maxHeapBytes) {
        return maxHeapBytes >= neededBytes(config);
    }

    /** @return the warning to log when {@code maxHeapBytes} is below what the limits need, else null */
    static String warning(final Config config, final long maxHeapBytes) {
        final long needed = neededBytes(config);
        if (maxHeapBytes >= needed) {
            return null;
        }
        return String.format("memory: with its books full this configuration needs about %.1f GiB of heap (%,d resting"
                + " orders x %d B + (%,d retained + %,d kept for retries) final orders x %d B + %,d dedup entries x %d B"
                + "%s + %d MiB), and this JVM may use %.1f GiB: set -Xmx (JAVA_OPTS) to at least that, or lower"
                + " ORDERS_ENGINE_MAX_RESTING_ORDERS / ORDERS_QUERY_RETAINED_FINAL_ORDERS; running out of memory"
                + " stops the process, and the replay after it would run out again (README, \"Sizing the heap\"). Until"
                + " then the engine does not reserve its order storage at start but grows it with the books, which"
                + " lengthens young collections while they grow",
                needed / (double) (1L << 30), config.engine().maxRestingOrders(), RESTING_ORDER_BYTES,
                config.query().retainedFinalOrders(), config.engine().dedupWindow(), FINAL_ORDER_BYTES,
                config.engine().dedupWindow(), DEDUP_ENTRY_BYTES,
                config.snapshots().enabled() ? ", twice for the snapshot writer's copy" : "", BASE_BYTES >> 20,
                maxHeapBytes / (double) (1L << 30));
    }
}
