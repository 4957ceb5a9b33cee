package io.orderentry.bench.engine;

import io.orderentry.engine.Matcher;

/**
 * Replays a {@link BenchmarkCommands} cycle into a matcher over and over, one command per call,
 * allocating nothing. The matcher must start with an empty book; each cycle ends with an empty book
 * again, so the next one starts from the same state (only the ids have moved on).
 */
final class CommandPlayer {

    private final BenchmarkCommands commands;
    private final Matcher matcher;
    private int cursor;
    private long cycleBase;
    private long timestamp;

    CommandPlayer(final BenchmarkCommands commands, final Matcher matcher) {
        if (matcher.restingOrderCount() != 0) {
            throw new IllegalArgumentException("the matcher's book must be empty");
        }
        this.commands = commands;
        this.matcher = matcher;
        this.cycleBase = matcher.lastOrderId();
    }

    /** Executes the next command of the cycle, starting a new cycle after the last one. */
    void next() {
        commands.execute(matcher, cursor, cycleBase, ++timestamp);
        if (++cursor == commands.length()) {
            cursor = 0;
            cycleBase = matcher.lastOrderId();
        }
    }

    /** Executes the next {@code count} commands. */
    void run(final long count) {
        for (long i = 0; i < count; i++) {
            next();
        }
    }
}
