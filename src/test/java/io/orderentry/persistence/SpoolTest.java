package io.orderentry.persistence;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.orderentry.engine.SelfTradePrevention;
import io.orderentry.pipeline.EngineEvent;
import io.orderentry.pipeline.EventType;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SpoolTest {

    private static final int BUFFER = 4 * 1024;
    private static final long SEGMENT = 16 * 1024;

    @TempDir
    Path dir;

    private final List<EngineEvent> events = GeneratedEvents.generateWithOperations(3, 3_000);

    @Test
    void everyEventTypeComesBackFieldForField() throws Exception {
        assertEquals(4, events.stream().map(e -> e.type).distinct().count(), "the mix has all four types");
        assertTrue(events.stream().anyMatch(e -> e.type == EventType.ORDER_AMENDED && e.keptPriority));
        assertTrue(events.stream().anyMatch(e -> e.selfTradePrevention == SelfTradePrevention.EXPIRE_BOTH));
        try (SpoolWriter writer = new SpoolWriter(dir, SEGMENT, BUFFER);
             SpoolReader reader = new SpoolReader(dir, writer::flushedSequence, BUFFER)) {
            for (final EngineEvent event : events) {
                writer.append(event);
            }
            writer.flush();
            final EngineEvent read = new EngineEvent();
            for (final EngineEvent event : events) {
                assertTrue(reader.next(read));
                assertSame(event, read);
            }
            assertFalse(reader.next(read));
        }
    }

    @Test
    void theReaderStopsAtWhatTheWriterPublished() throws Exception {
        try (SpoolWriter writer = new SpoolWriter(dir, SEGMENT, BUFFER);
             SpoolReader reader = new SpoolReader(dir, writer::flushedSequence, BUFFER)) {
            final EngineEvent read = new EngineEvent();
            assertFalse(reader.next(read), "nothing published yet");
            writer.append(events.get(0));
            writer.append(events.get(1));
            assertFalse(reader.next(read), "appended but not flushed");
            writer.flush();
            writer.append(events.get(2));
            assertTrue(reader.next(read));
            assertTrue(reader.next(read));
            assertFalse(reader.next(read), "the third event is still in the writer's buffer");
            writer.flush();
            assertTrue(reader.next(read));
            assertEquals(3, read.eventSequence);
        }
    }

    @Test
    void theReaderFollowsTheWriterAcrossSegmentsWhileBothRun() throws Exception {
        try (SpoolWriter writer = new SpoolWriter(dir, SEGMENT, BUFFER);
             SpoolReader reader = new SpoolReader(dir, writer::flushedSequence, BUFFER)) {
            final EngineEvent read = new EngineEvent();
            long expected = 1;
            for (final EngineEvent event : events) {
                writer.append(event);
                if (event.eventSequence % 37 == 0) {
                    writer.flush();
                    while (reader.next(read)) {
                        assertEquals(expected++, read.eventSequence);
                    }
                }
            }
            writer.flush();
            while (reader.next(read)) {
                assertEquals(expected++, read.eventSequence);
            }
            assertEquals(events.size() + 1, expected);
            assertTrue(SpoolFiles.list(dir).size() > 5, "small segments roll: " + SpoolFiles.list(dir));
            for (final Path segment : SpoolFiles.list(dir)) {
                assertTrue(Files.size(segment) <= SEGMENT, segment + " is larger than a segment");
            }
        }
    }

    @Test
    void segmentsAreDeletedOnlyOnceTheDatabaseHoldsEveryEventInThem() throws Exception {
        try (SpoolWriter writer = new SpoolWriter(dir, SEGMENT, BUFFER);
             SpoolReader reader = new SpoolReader(dir, writer::flushedSequence, BUFFER)) {
            for (final EngineEvent event : events) {
                writer.append(event);
            }
            writer.flush();
            final int segments = SpoolFiles.list(dir).size();
            final EngineEvent read = new EngineEvent();
            while (reader.next(read)) {
                assertTrue(read.eventSequence > 0);
            }
            assertEquals(0, reader.deleteThrough(0), "nothing is in the database yet");
            final Path first = SpoolFiles.list(dir).get(0);
            final long lastOfFirst = lastSequenceIn(first);
            assertEquals(0, reader.deleteThrough(lastOfFirst - 1), "one event of the first segment is not stored");
            assertEquals(1, reader.deleteThrough(lastOfFirst), "the first segment is all stored");
            assertFalse(Files.exists(first));
            assertEquals(segments - 2, reader.deleteThrough(events.size()),
                    "every finished segment goes; the one being written stays");
            assertEquals(1, SpoolFiles.list(dir).size());
            assertTrue(reader.deletedBytes() > 0);
        }
    }

    @Test
    void resetEmptiesTheSpoolAndKeepsOtherFiles() throws Exception {
        try (SpoolWriter writer = new SpoolWriter(dir, SEGMENT, BUFFER)) {
            for (final EngineEvent event : events) {
                writer.append(event);
            }
            writer.flush();
        }
        Files.writeString(dir.resolve("notes.txt"), "keep");
        assertTrue(SpoolFiles.reset(dir) > 0);
        assertTrue(SpoolFiles.list(dir).isEmpty());
        assertTrue(Files.exists(dir.resolve("notes.txt")));
        assertEquals(0, SpoolFiles.reset(dir.resolve("new")), "a missing directory is created");
        assertTrue(Files.isDirectory(dir.resolve("new")));
    }

    private static long lastSequenceIn(final Path segment) throws Exception {
        final ByteBuffer bytes = ByteBuffer.wrap(Files.readAllBytes(segment));
        final EngineEvent read = new EngineEvent();
        while (bytes.hasRemaining()) {
            SpoolCodec.decode(bytes, read);
        }
        return read.eventSequence;
    }

    static void assertSame(final EngineEvent expected, final EngineEvent actual) {
        final String at = "event " + expected.eventSequence;
        assertEquals(expected.type, actual.type, at);
        assertEquals(expected.eventSequence, actual.eventSequence, at);
        assertEquals(expected.commandSequence, actual.commandSequence, at);
        assertEquals(expected.timestampMicros, actual.timestampMicros, at);
        assertEquals(expected.symbol, actual.symbol, at);
        if (expected.type == EventType.TRADE) {
            assertEquals(expected.tradeId, actual.tradeId, at);
            assertEquals(expected.price, actual.price, at);
            assertEquals(expected.quantity, actual.quantity, at);
            assertEquals(expected.takerSide, actual.takerSide, at);
            assertEquals(expected.takerOrderId, actual.takerOrderId, at);
            assertEquals(expected.takerAccountId, actual.takerAccountId, at);
            assertEquals(expected.takerFilledQuantity, actual.takerFilledQuantity, at);
            assertEquals(expected.makerOrderId, actual.makerOrderId, at);
            assertEquals(expected.makerAccountId, actual.makerAccountId, at);
            assertEquals(expected.makerFilledQuantity, actual.makerFilledQuantity, at);
            assertEquals(expected.makerStatus, actual.makerStatus, at);
            return;
        }
        assertEquals(expected.orderId, actual.orderId, at);
        assertEquals(expected.accountId, actual.accountId, at);
        assertEquals(expected.side, actual.side, at);
        assertEquals(expected.price, actual.price, at);
        assertEquals(expected.quantity, actual.quantity, at);
        assertEquals(expected.status, actual.status, at);
        assertEquals(expected.rejectReason, actual.rejectReason, at);
        if (expected.type == EventType.ORDER_ACCEPTED) {
            assertEquals(expected.clientOrderId.toStringOrNull(), actual.clientOrderId.toStringOrNull(), at);
            assertEquals(expected.orderType, actual.orderType, at);
            assertEquals(expected.timeInForce, actual.timeInForce, at);
            assertEquals(expected.postOnly, actual.postOnly, at);
            assertEquals(expected.selfTradePrevention, actual.selfTradePrevention, at);
        } else if (expected.type == EventType.ORDER_AMENDED) {
            assertEquals(expected.filledQuantity, actual.filledQuantity, at);
            assertEquals(expected.previousPrice, actual.previousPrice, at);
            assertEquals(expected.previousQuantity, actual.previousQuantity, at);
            assertEquals(expected.keptPriority, actual.keptPriority, at);
        } else {
            assertEquals(expected.filledQuantity, actual.filledQuantity, at);
            assertEquals(expected.remainingQuantity, actual.remainingQuantity, at);
        }
    }
}
