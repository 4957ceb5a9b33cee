package io.orderentry.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The matcher is a deterministic state machine: replaying the same commands into a new matcher gives
 * the same events, ids and books, which is what journal replay relies on.
 */
class MatcherDeterminismTest {

    private static final int SYMBOLS = 2;
    private static final EngineConfig LIMITS = new EngineConfig(500, 60, 20, 1_000);
    private static final int[] BANDS = {500, 0};

    @Test
    void sameCommandsIntoTwoMatchersGiveIdenticalEventStreams() {
        final List<Command> commands = new CommandGenerator(42, SYMBOLS, LIMITS.dedupWindow()).generate(30_000);
        final RecordingEventSink first = new RecordingEventSink();
        final RecordingEventSink second = new RecordingEventSink();
        final OrderEngine original = new MatcherEngine(SYMBOLS, LIMITS, BANDS, first);
        final OrderEngine replay = new MatcherEngine(SYMBOLS, LIMITS, BANDS, second);
        for (int i = 0; i < commands.size(); i++) {
            commands.get(i).applyTo(original, 1_000L * i);
        }
        for (int i = 0; i < commands.size(); i++) {
            commands.get(i).applyTo(replay, 1_000L * i);
        }
        assertTrue(first.events().size() > 2 * commands.size(), "too few events: " + first.events().size());
        assertEquals(first.events(), second.events());
        for (int symbol = 0; symbol < SYMBOLS; symbol++) {
            for (final Side side : Side.values()) {
                assertEquals(original.levels(symbol, side), replay.levels(symbol, side));
            }
        }
        assertEquals(original.lastEventSequence(), replay.lastEventSequence());
        original.checkInvariants();
        replay.checkInvariants();
    }

    @Test
    void replayedCommandsReproduceTheSameIdsWhateverTheSink() {
        final List<Command> commands = new CommandGenerator(43, SYMBOLS, LIMITS.dedupWindow()).generate(5_000);
        final RecordingEventSink recorded = new RecordingEventSink();
        final OrderEngine withRecorder = new MatcherEngine(SYMBOLS, LIMITS, BANDS, recorded);
        final OrderEngine withCounter = new MatcherEngine(SYMBOLS, LIMITS, BANDS, new RecordingEventSink());
        for (int i = 0; i < commands.size(); i++) {
            commands.get(i).applyTo(withRecorder, i);
            commands.get(i).applyTo(withCounter, i);
        }
        assertEquals(List.of(withRecorder.lastOrderId(), withRecorder.lastTradeId(), withRecorder.lastEventSequence()),
                List.of(withCounter.lastOrderId(), withCounter.lastTradeId(), withCounter.lastEventSequence()));
    }
}
