package io.orderentry.journal;

import io.orderentry.engine.MarketBandRule;
import io.orderentry.engine.OrderType;
import io.orderentry.engine.RejectReason;
import io.orderentry.engine.SelfTradePrevention;
import io.orderentry.engine.Side;
import io.orderentry.engine.TimeInForce;
import io.orderentry.pipeline.OrderCommand;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.zip.CRC32C;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RecordRoundTripTest {

    @TempDir
    Path dir;

    private final List<OrderCommand> written = new ArrayList<>();

    @Test
    void shouldReplayEveryPlaceFieldCombination() throws IOException {
        for (final Side side : Side.values()) {
            for (final OrderType type : OrderType.values()) {
                for (final TimeInForce tif : TimeInForce.values()) {
                    for (final boolean postOnly : new boolean[] {false, true}) {
                        final OrderCommand c = new OrderCommand();
                        Commands.place(c, "acct-" + written.size(), "c-" + written.size(), written.size() % 3, side,
                                type, tif, postOnly, written.size() * 1_000_003L, Long.MAX_VALUE - written.size());
                        written.add(c);
                    }
                }
            }
        }
        assertReplaysAsWritten();
    }

    @Test
    void shouldReplayEverySelfTradePreventionModeBesideThePostOnlyFlag() throws IOException {
        for (final SelfTradePrevention stp : SelfTradePrevention.values()) {
            for (final boolean postOnly : new boolean[] {false, true}) {
                final OrderCommand c = new OrderCommand();
                Commands.place(c, "a", null, 0, Side.BUY, OrderType.LIMIT, TimeInForce.GTC, postOnly, 5, 1);
                c.selfTradePrevention = stp;
                written.add(c);
            }
        }
        assertReplaysAsWritten();
    }

    @Test
    void shouldReplayAmendCancelAllAndPriceBandCommands() throws IOException {
        final OrderCommand amend = new OrderCommand();
        Commands.amend(amend, Long.MAX_VALUE, 0, 7);
        written.add(amend);
        final OrderCommand reprice = new OrderCommand();
        Commands.amend(reprice, 3, 123_456, 0);
        written.add(reprice);
        for (final RejectReason cause : new RejectReason[] {RejectReason.CANCEL_ALL, RejectReason.CANCEL_ALL_AFTER}) {
            for (final int symbol : new int[] {-1, 2}) {
                final OrderCommand all = new OrderCommand();
                Commands.cancelAll(all, "acct-" + symbol, symbol, cause);
                written.add(all);
            }
        }
        final OrderCommand band = new OrderCommand();
        Commands.setPriceBand(band, 1, 9_999);
        written.add(band);
        final OrderCommand off = new OrderCommand();
        Commands.setPriceBand(off, 0, 0);
        written.add(off);
        final OrderCommand older = new OrderCommand();
        Commands.setPriceBand(older, 2, 500, MarketBandRule.FAR_EDGE_ONLY);
        written.add(older);
        assertReplaysAsWritten();
    }

    @Test
    void aPlaceThroughAConnectionWithCancelOnDisconnectAndItsCancelReplayWithTheConnectionsNumber() throws IOException {
        for (final long session : new long[] {1, -1, Long.MIN_VALUE, 0x5eed_1234_abcd_0042L}) {
            final OrderCommand place = new OrderCommand();
            Commands.place(place, "a", "c-" + session, 1, Side.SELL, OrderType.LIMIT, TimeInForce.GTC, true, 9, 2);
            place.selfTradePrevention = SelfTradePrevention.EXPIRE_BOTH;   // beside bits 0-2 of the flags
            place.session = session;
            written.add(place);
            final OrderCommand cancel = new OrderCommand();
            Commands.cancelAll(cancel, "a", -1, RejectReason.CANCEL_ON_DISCONNECT);
            cancel.session = session;
            written.add(cancel);
        }
        final OrderCommand plain = new OrderCommand();
        Commands.place(plain, "a", null, 0, Side.BUY, OrderType.LIMIT, TimeInForce.GTC, false, 5, 1);
        written.add(plain);
        assertReplaysAsWritten();
    }

    @Test
    void aCancelOnDisconnectOfOneInstrumentOrWithoutAConnectionIsRefusedNotJournaled() throws IOException {
        final OrderCommand oneInstrument = new OrderCommand();
        Commands.cancelAll(oneInstrument, "a", 1, RejectReason.CANCEL_ON_DISCONNECT);
        oneInstrument.session = 7;
        final OrderCommand noConnection = new OrderCommand();
        Commands.cancelAll(noConnection, "a", -1, RejectReason.CANCEL_ON_DISCONNECT);
        try (JournalWriter writer = TestJournal.reopen(TestJournal.config(dir))) {
            oneInstrument.sequence = 1;
            oneInstrument.timestampMicros = 1000;
            assertThrows(IllegalArgumentException.class, () -> writer.append(oneInstrument));
            noConnection.sequence = 1;
            noConnection.timestampMicros = 1000;
            assertThrows(IllegalArgumentException.class, () -> writer.append(noConnection));
        }
        assertEquals(0, TestJournal.replay(dir).records().size());
    }

    @Test
    void aBandJournaledBeforeIssue31ReplaysUnderTheRuleItWasMatchedWith() throws IOException {
        final ByteBuffer segment = bandSegment();
        final int start = JournalFormat.SEGMENT_HEADER_SIZE;
        // what the builds before issue 31 wrote: type 5, without the rule byte
        final int length = segment.getInt(start) - 1;
        assertEquals(JournalFormat.TYPE_SET_PRICE_BAND_WITH_RULE, segment.get(start + JournalFormat.TYPE_OFFSET));
        assertEquals(MarketBandRule.CURRENT.code(), segment.get(start + length));
        segment.put(start + JournalFormat.TYPE_OFFSET, JournalFormat.TYPE_SET_PRICE_BAND).putInt(start, length);
        writeSealed(segment, start, length);
        final List<Recorded> replayed = TestJournal.replay(dir).records();
        assertEquals(1, replayed.size());
        assertEquals(1_000, replayed.get(0).priceBandBasisPoints());
        assertEquals(MarketBandRule.FAR_EDGE_ONLY, replayed.get(0).priceBandRule());
    }

    @Test
    void aBandWithAnUnknownRuleIsCorruptedNotReplayedUnderAnotherRule() throws IOException {
        final ByteBuffer segment = bandSegment();
        final int start = JournalFormat.SEGMENT_HEADER_SIZE;
        final int length = segment.getInt(start);
        segment.put(start + length - 1, (byte) 3);   // a rule this build does not know
        writeSealed(segment, start, length);
        final JournalCorruptedException e = assertThrows(JournalCorruptedException.class,
                () -> TestJournal.replay(dir));
        assertTrue(e.getMessage().contains("unknown market band rule 3"), e.getMessage());
    }

    /**
     * @return a version 1 segment (records without the origin block, so a record ends with its own fields) holding one
     *         band change of 10% on instrument 1, as this build encodes it
     */
    private ByteBuffer bandSegment() {
        final JournalRecords cluster = new JournalRecords(Commands.SYMBOLS, Commands.SYMBOL_INDEX, dir);
        final ByteBuffer segment = ByteBuffer.allocate(4096).order(JournalFormat.BYTE_ORDER);
        SegmentFiles.encodeHeader(segment, 1);
        segment.putInt(4, 1);
        segment.limit(segment.capacity()).position(JournalFormat.SEGMENT_HEADER_SIZE);
        final OrderCommand band = new OrderCommand();
        Commands.setPriceBand(band, 1, 1_000);
        band.sequence = 1;
        band.timestampMicros = 1000;
        cluster.encode(band, segment);
        return segment;
    }

    /** Fixes the CRC of the (edited) record at {@code start} and writes the segment up to its end as the journal. */
    private void writeSealed(final ByteBuffer segment, final int start, final int length) throws IOException {
        final CRC32C crc = new CRC32C();
        crc.update(segment.array(), start + JournalFormat.CRC_START, length - JournalFormat.CRC_START);
        segment.putInt(start + 4, (int) crc.getValue());
        java.nio.file.Files.write(dir.resolve("00000000000000000001.journal"),
                java.util.Arrays.copyOf(segment.array(), start + length));
    }

    @Test
    void aPlaceWrittenBeforeSelfTradePreventionExistedReadsAsNone() throws IOException {
        final OrderCommand c = new OrderCommand();
        Commands.place(c, "a", null, 0, Side.BUY, OrderType.LIMIT, TimeInForce.GTC, true, 5, 1);
        c.selfTradePrevention = null;    // what the flags byte of a record from before issue 15 holds: 0 or 1
        written.add(c);
        writeAll();
        final Recorded replayed = TestJournal.replay(dir).records().get(0);
        assertEquals(SelfTradePrevention.NONE, replayed.selfTradePrevention());
        assertTrue(replayed.postOnly());
    }

    @Test
    void shouldReplayCancel() throws IOException {
        final OrderCommand c = new OrderCommand();
        Commands.cancel(c, Long.MAX_VALUE);
        written.add(c);
        final OrderCommand d = new OrderCommand();
        Commands.cancel(d, 1);
        written.add(d);
        assertReplaysAsWritten();
    }

    @Test
    void shouldReplayNullClientOrderIdAsNull() throws IOException {
        final OrderCommand c = new OrderCommand();
        Commands.place(c, "a", null, 1, Side.SELL, OrderType.MARKET, TimeInForce.IOC, false, 0, 5);
        written.add(c);
        assertReplaysAsWritten();
        assertNull(TestJournal.replay(dir).records().get(0).clientOrderId());
    }

    @Test
    void shouldReplaySixtyFourCharacterIdsAndEmptyClientOrderId() throws IOException {
        final String id = "A".repeat(30) + "-_.:" + "9".repeat(30);
        final OrderCommand c = new OrderCommand();
        Commands.place(c, "a".repeat(64), id, 2, Side.BUY, OrderType.LIMIT, TimeInForce.FOK, false, -5, 1);
        written.add(c);
        final OrderCommand d = new OrderCommand();
        Commands.place(d, "b", "", 0, Side.BUY, OrderType.LIMIT, TimeInForce.GTC, true, 1, 1);
        written.add(d);
        assertReplaysAsWritten();
    }

    @Test
    void shouldReplayNonAsciiIdsAsUtf8() throws IOException {
        final OrderCommand c = new OrderCommand();
        Commands.place(c, "kunde-\u00e9\u4e2d\ud83d\ude00".repeat(8), "\ud83d\ude00".repeat(32), 0, Side.BUY,
                OrderType.LIMIT, TimeInForce.GTC, false, 1, 1);
        written.add(c);
        assertReplaysAsWritten();
    }

    @Test
    void shouldReplayWithoutRequestOrReplyTarget() throws IOException {
        written.add(Commands.nth(1));
        writeAll();
        JournalReader.recover(dir, Commands.SYMBOL_INDEX, c -> {
            assertEquals(0, c.requestId);
            assertEquals(-1, c.replyTo);
            assertFalse(c.journalFailed);
        });
    }

    @Test
    void shouldWriteTheDocumentedLayout() throws IOException {
        final OrderCommand c = new OrderCommand();
        Commands.cancel(c, 0x0102030405060708L);
        written.add(c);
        writeAll();
        final Path segment = dir.resolve("00000000000000000001.journal");
        final ByteBuffer bytes = TestJournal.readAll(segment);
        final int origin = 3 * 2;   // three null strings: nobody asked
        assertEquals(JournalFormat.SEGMENT_HEADER_SIZE + JournalFormat.MIN_RECORD_SIZE + origin, bytes.limit());
        assertEquals('J', bytes.get(0));
        assertEquals('L', bytes.get(3));
        assertEquals(JournalFormat.VERSION, bytes.getInt(4));
        assertEquals(1, bytes.getLong(8));
        final int r = JournalFormat.SEGMENT_HEADER_SIZE;
        assertEquals(JournalFormat.MIN_RECORD_SIZE + origin, bytes.getInt(r));
        final CRC32C crc = new CRC32C();
        crc.update(bytes.array(), r + 8, JournalFormat.MIN_RECORD_SIZE + origin - 8);
        assertEquals((int) crc.getValue(), bytes.getInt(r + 4));
        assertEquals(1, bytes.getLong(r + 8));
        assertEquals(1000, bytes.getLong(r + 16));
        assertEquals(2, bytes.get(r + 24));
        assertEquals(0x0102030405060708L, bytes.getLong(r + 25));
        for (int i = 0; i < 3; i++) {
            assertEquals(JournalFormat.NULL_STRING, bytes.getShort(r + 33 + 2 * i) & 0xFFFF);
        }
    }

    @Test
    void whoAskedIsJournaledWithTheCommandSoThatTheAuditTrailCanBeRebuiltFromTheJournal() throws IOException {
        final OrderCommand place = new OrderCommand();
        Commands.place(place, "a".repeat(64), "c".repeat(64), 0, Side.BUY, OrderType.LIMIT, TimeInForce.GTC, false,
                1, 1);
        place.requestTag = "5f3a9c1e-1-42";
        place.remoteAddress = "[2001:db8:0:0:0:0:0:1%" + "e".repeat(40) + "]:65535";   // 74 characters: cut to 64
        place.keyId = "k0123456789abcdef";
        written.add(place);
        final OrderCommand cancel = new OrderCommand();
        Commands.cancel(cancel, 9);
        cancel.requestTag = "t-\u00e9";   // not ASCII: written as '?'
        written.add(cancel);
        writeAll();
        final List<String> origins = new ArrayList<>();
        JournalReader.recover(dir, Commands.SYMBOL_INDEX,
                c -> origins.add(c.requestTag + " " + c.remoteAddress + " " + c.keyId));
        assertEquals(List.of("5f3a9c1e-1-42 " + place.remoteAddress.substring(0, 64) + " k0123456789abcdef",
                "t-? null null"), origins);
        assertEquals(Recorded.of(place), TestJournal.replay(dir).records().get(0), "the command is as it was");
        final List<String> above = new ArrayList<>();
        JournalReader.recover(dir, Commands.SYMBOL_INDEX, JournalPosition.START, 1,
                c -> above.add(c.requestTag + " " + c.keyId));
        assertEquals(List.of("null null", "t-? null"), above, "who asked is decoded only above the given sequence");
    }

    @Test
    void aVersion1JournalStillReplaysAndTheWriterContinuesItInAVersion2Segment() throws IOException {
        final JournalRecords cluster = new JournalRecords(Commands.SYMBOLS, Commands.SYMBOL_INDEX, dir);
        final ByteBuffer v1 = ByteBuffer.allocate(4096).order(JournalFormat.BYTE_ORDER);
        SegmentFiles.encodeHeader(v1, 1);
        v1.putInt(4, 1);   // a segment written before the origin block: version 1, records without it
        v1.limit(v1.capacity()).position(JournalFormat.SEGMENT_HEADER_SIZE);
        for (long s = 1; s <= 2; s++) {
            final OrderCommand c = Commands.nth(s);
            c.sequence = s;
            c.timestampMicros = 1000 * s;
            c.keyId = "never-written";
            cluster.encode(c, v1);   // the cluster's records have no origin block: the same bytes as version 1
            written.add(c);
        }
        java.nio.file.Files.write(dir.resolve("00000000000000000001.journal"),
                java.util.Arrays.copyOf(v1.array(), v1.position()));
        try (JournalWriter writer = TestJournal.reopen(TestJournal.config(dir))) {
            final OrderCommand next = Commands.nth(3);
            next.sequence = 3;
            next.timestampMicros = 3000;
            next.keyId = "k-new";
            assertTrue(writer.append(next));
            assertTrue(writer.flush());
            written.add(next);
        }
        final Path second = dir.resolve("00000000000000000003.journal");
        assertTrue(java.nio.file.Files.exists(second), "records of version 2 go to a segment of their own");
        assertEquals(JournalFormat.VERSION, TestJournal.readAll(second).getInt(4));
        assertEquals(1, TestJournal.readAll(dir.resolve("00000000000000000001.journal")).getInt(4));
        final List<String> keys = new ArrayList<>();
        final JournalRecovery recovery = JournalReader.recover(dir, Commands.SYMBOL_INDEX, c -> keys.add(c.keyId));
        assertEquals(3, recovery.lastSequence());
        assertEquals(java.util.Arrays.asList(null, null, "k-new"), keys);
        final List<Recorded> replayed = TestJournal.replay(dir).records();
        for (int i = 0; i < written.size(); i++) {
            assertEquals(Recorded.of(written.get(i)), replayed.get(i));
        }
    }

    @Test
    void shouldStoreTheSymbolByNameSoThatAReorderedListStillReplaysToTheRightInstrument() throws IOException {
        final OrderCommand c = new OrderCommand();
        Commands.place(c, "a", null, 1, Side.BUY, OrderType.LIMIT, TimeInForce.GTC, false, 1, 1);
        written.add(c);
        writeAll();
        final List<Integer> symbols = new ArrayList<>();
        JournalReader.recover(dir, Map.of("ETHUSD", 7), r -> symbols.add(r.symbol));
        assertEquals(List.of(7), symbols);
    }

    @Test
    void shouldRefuseACommandThatDoesNotFitARecordAndStayHealthy() throws IOException {
        try (JournalWriter writer = TestJournal.reopen(TestJournal.config(dir))) {
            final OrderCommand c = new OrderCommand();
            Commands.place(c, "a".repeat(300), "b".repeat(300), 0, Side.BUY, OrderType.LIMIT, TimeInForce.GTC,
                    false, 1, 1);
            c.sequence = 1;
            final IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> writer.append(c));
            assertTrue(e.getMessage().contains("512"), e.getMessage());
            assertTrue(writer.isHealthy());
            TestJournal.append(writer, 1, 1);
        }
        assertEquals(1, TestJournal.replay(dir).records().size());
    }

    @Test
    void shouldRefuseIncompleteCommands() throws IOException {
        try (JournalWriter writer = TestJournal.reopen(TestJournal.config(dir))) {
            final OrderCommand noAccount = Commands.nth(1);
            noAccount.accountId = null;
            noAccount.sequence = 1;
            assertThrows(IllegalArgumentException.class, () -> writer.append(noAccount));
            final OrderCommand badSymbol = Commands.nth(1);
            badSymbol.symbol = Commands.SYMBOLS.length;
            badSymbol.sequence = 1;
            assertThrows(IllegalArgumentException.class, () -> writer.append(badSymbol));
            final OrderCommand noType = new OrderCommand();
            noType.sequence = 1;
            assertThrows(IllegalArgumentException.class, () -> writer.append(noType));
            final OrderCommand unpaired = Commands.nth(1);
            unpaired.accountId = "x\ud800";
            unpaired.sequence = 1;
            assertThrows(IllegalArgumentException.class, () -> writer.append(unpaired));
            assertTrue(writer.isHealthy());
        }
        assertEquals(0, TestJournal.replay(dir).records().size());
    }

    @Test
    void shouldRefuseOutOfOrderSequencesAndDecreasingTimestamps() throws IOException {
        try (JournalWriter writer = TestJournal.reopen(TestJournal.config(dir))) {
            final OrderCommand c = Commands.nth(1);
            c.sequence = 2;
            assertThrows(IllegalArgumentException.class, () -> writer.append(c));
            c.sequence = 1;
            c.timestampMicros = 10;
            assertTrue(writer.append(c));
            final OrderCommand d = Commands.nth(2);
            d.sequence = 2;
            d.timestampMicros = 9;
            assertThrows(IllegalArgumentException.class, () -> writer.append(d));
        }
    }

    private void writeAll() throws IOException {
        try (JournalWriter writer = TestJournal.reopen(TestJournal.config(dir))) {
            long sequence = 1;
            for (final OrderCommand c : written) {
                c.sequence = sequence;
                c.timestampMicros = 1000 * sequence;
                sequence++;
                assertTrue(writer.append(c));
            }
        }
    }

    private void assertReplaysAsWritten() throws IOException {
        writeAll();
        final List<Recorded> replayed = TestJournal.replay(dir).records();
        assertEquals(written.size(), replayed.size());
        for (int i = 0; i < written.size(); i++) {
            assertEquals(Recorded.of(written.get(i)), replayed.get(i));
        }
    }
}
