package io.orderentry.persistence;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.orderentry.engine.CommandResult;
import io.orderentry.pipeline.EngineEvent;
import io.orderentry.pipeline.EventType;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PersistenceStageTest {

    private static final int BUFFER = 4 * 1024;

    @TempDir
    Path dir;

    private final List<EngineEvent> events = GeneratedEvents.generateWithOperations(11, 200);

    @Test
    void eventsTheDatabaseAlreadyHoldsAreNotSpooled() throws Exception {
        final SpoolWriter spool = new SpoolWriter(dir, 1 << 20, BUFFER);
        final PersistenceStage stage = new PersistenceStage(spool, 120);
        feed(stage, events);
        assertEquals(200, stage.lastSeenSequence(), "every event is seen");
        assertEquals(200, stage.spooledSequence());
        try (SpoolReader reader = new SpoolReader(dir, spool::flushedSequence, BUFFER)) {
            final EngineEvent read = new EngineEvent();
            assertTrue(reader.next(read));
            assertEquals(121, read.eventSequence, "the spool starts above the high-water mark");
        }
        stage.onShutdown();
    }

    @Test
    void commandCompletionsAreNotSpooledAndTheSpoolIsPublishedAtEndOfBatch() throws Exception {
        final SpoolWriter spool = new SpoolWriter(dir, 1 << 20, BUFFER);
        final PersistenceStage stage = new PersistenceStage(spool, 0);
        stage.onEvent(events.get(0), 0, false);
        final EngineEvent completed = new EngineEvent();
        completed.reset();
        completed.type = EventType.COMMAND_COMPLETED;
        completed.result = CommandResult.PLACED;
        stage.onEvent(completed, 1, false);
        assertEquals(0, stage.spooledSequence(), "nothing is published before the end of the batch");
        stage.onEvent(events.get(1), 2, true);
        assertEquals(2, stage.spooledSequence());
        assertEquals(2, stage.lastSeenSequence());
        stage.onShutdown();
    }

    @Test
    void aSpoolAtItsSizeBoundStopsSpoolingNamingTheSettingAndTradingGoesOn() throws Exception {
        final List<EngineEvent> many = GeneratedEvents.generate(12, 5_000);
        final SpoolWriter spool = new SpoolWriter(dir, 64 * 1024, BUFFER);
        spool.limits(3 * 64 * 1024, 0, () -> 0);   // room for three segments
        final PersistenceStage stage = new PersistenceStage(spool, 0);
        feed(stage, many);
        assertNotNull(stage.failure(), "the fourth segment is refused");
        assertTrue(stage.failure().contains("ORDERS_PERSISTENCE_SPOOL_MAX_BYTES"), stage.failure());
        assertEquals(5_000, stage.lastSeenSequence(), "the stage keeps consuming");
        assertTrue(stage.spooledSequence() > 0 && stage.spooledSequence() < 5_000, "" + stage.spooledSequence());
        try (var files = Files.list(dir)) {
            assertEquals(3, files.count(), "no more than the bound on disk");
        }
        stage.onShutdown();
    }

    @Test
    void aSpoolThatWouldLeaveTooLittleFreeSpaceForTheJournalStopsSpooling() throws Exception {
        final SpoolWriter spool = new SpoolWriter(dir, 1 << 20, BUFFER);
        spool.limits(Long.MAX_VALUE, Long.MAX_VALUE / 2, () -> 0);   // no disk has that much free
        final PersistenceStage stage = new PersistenceStage(spool, 0);
        feed(stage, events);
        assertNotNull(stage.failure());
        assertTrue(stage.failure().contains("ORDERS_PERSISTENCE_SPOOL_MIN_FREE_BYTES"), stage.failure());
        assertEquals(200, stage.lastSeenSequence());
        stage.onShutdown();
    }

    @Test
    void aSpoolThatCannotBeWrittenStopsSpoolingButNeverThrowsIntoTheRing() throws Exception {
        final Path gone = Files.createDirectory(dir.resolve("gone"));
        final SpoolWriter spool = new SpoolWriter(gone, 1 << 20, BUFFER);
        final PersistenceStage stage = new PersistenceStage(spool, 0);
        Files.delete(gone);
        assertNull(stage.failure());
        feed(stage, events);
        assertNotNull(stage.failure());
        assertTrue(stage.failure().contains("spool"), stage.failure());
        assertEquals(200, stage.lastSeenSequence(), "the stage keeps consuming");
        assertEquals(0, stage.spooledSequence());
        assertFalse(Files.exists(gone));
        stage.onShutdown();
    }

    private static void feed(final PersistenceStage stage, final List<EngineEvent> events) {
        for (int i = 0; i < events.size(); i++) {
            stage.onEvent(events.get(i), i, i == events.size() - 1 || i % 50 == 49);
        }
    }
}
