package io.orderentry.cluster;

import io.orderentry.engine.MarketBandRule;
import io.orderentry.engine.OrderType;
import io.orderentry.engine.RejectReason;
import io.orderentry.engine.SelfTradePrevention;
import io.orderentry.engine.Side;
import io.orderentry.engine.TimeInForce;
import io.orderentry.journal.JournalCorruptedException;
import io.orderentry.journal.JournalRecords;
import io.orderentry.journal.UnknownSymbolException;
import io.orderentry.pipeline.CommandType;
import io.orderentry.pipeline.OrderCommand;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ClusterCommandsTest {

    private static final String[] SYMBOLS = {"BTCUSD", "ETHUSD"};
    private static final Map<String, Integer> INDEX = Map.of("BTCUSD", 0, "ETHUSD", 1);

    private final ClusterCommands codec = new ClusterCommands(new JournalRecords(SYMBOLS, INDEX, Path.of("log")));

    private static OrderCommand place() {
        final OrderCommand c = new OrderCommand();
        c.reset();
        c.type = CommandType.PLACE;
        c.requestId = 4_000_000_001L;
        c.replyTo = 3;
        c.requestTag = "r0-17";
        c.remoteAddress = "127.0.0.1:50123";
        c.keyId = "k1234";
        c.accountId = "acct-1";
        c.clientOrderId = "c-1";
        c.symbol = 1;
        c.side = Side.SELL;
        c.orderType = OrderType.LIMIT;
        c.timeInForce = TimeInForce.IOC;
        c.postOnly = false;
        c.selfTradePrevention = SelfTradePrevention.EXPIRE_MAKER;
        c.price = 300_000;
        c.quantity = 1_500;
        return c;
    }

    private OrderCommand roundTrip(final OrderCommand sent, final ClusterCommands.Origin origin) throws Exception {
        final ByteBuffer message = codec.encode(sent, 2, 0x1234_5678_9ABC_DEF0L);
        final ByteBuffer received = ByteBuffer.allocate(ClusterCommands.maxMessageSize()).order(ByteOrder.LITTLE_ENDIAN);
        received.put(message.duplicate());
        final OrderCommand decoded = new OrderCommand();
        codec.decode(received, message.limit(), decoded, origin, 640);
        return decoded;
    }

    @Test
    void aPlaceCarriesItsTermsAndWhoWaitsForItsAnswer() throws Exception {
        final ClusterCommands.Origin origin = new ClusterCommands.Origin();
        final OrderCommand decoded = roundTrip(place(), origin);
        assertEquals(2, origin.member());
        assertEquals(0x1234_5678_9ABC_DEF0L, origin.incarnation());
        assertEquals(CommandType.PLACE, decoded.type);
        assertEquals(4_000_000_001L, decoded.requestId);
        assertEquals(3, decoded.replyTo);
        assertEquals("r0-17", decoded.requestTag);
        assertEquals("127.0.0.1:50123", decoded.remoteAddress);
        assertEquals("k1234", decoded.keyId);
        assertEquals("acct-1", decoded.accountId);
        assertEquals("c-1", decoded.clientOrderId);
        assertEquals(1, decoded.symbol);
        assertEquals(Side.SELL, decoded.side);
        assertEquals(OrderType.LIMIT, decoded.orderType);
        assertEquals(TimeInForce.IOC, decoded.timeInForce);
        assertEquals(SelfTradePrevention.EXPIRE_MAKER, decoded.selfTradePrevention);
        assertEquals(300_000, decoded.price);
        assertEquals(1_500, decoded.quantity);
        assertEquals(0, decoded.sequence, "the log numbers commands, not the sender");
    }

    @Test
    void aCommandWithoutRequestDetailsKeepsThemAbsent() throws Exception {
        final OrderCommand band = new OrderCommand();
        band.reset();
        band.type = CommandType.SET_PRICE_BAND;
        band.symbol = 0;
        band.priceBandBasisPoints = 750;
        band.priceBandRule = MarketBandRule.CURRENT;
        final OrderCommand decoded = roundTrip(band, new ClusterCommands.Origin());
        assertEquals(CommandType.SET_PRICE_BAND, decoded.type);
        assertEquals(750, decoded.priceBandBasisPoints);
        assertEquals(MarketBandRule.CURRENT, decoded.priceBandRule);
        assertNull(decoded.requestTag);
        assertNull(decoded.remoteAddress);
        assertNull(decoded.keyId);
        assertEquals(-1, decoded.replyTo);
    }

    @Test
    void cancelAmendAndCancelAllRoundTrip() throws Exception {
        final OrderCommand cancel = new OrderCommand();
        cancel.reset();
        cancel.type = CommandType.CANCEL;
        cancel.orderId = 99;
        assertEquals(99, roundTrip(cancel, new ClusterCommands.Origin()).orderId);

        final OrderCommand amend = new OrderCommand();
        amend.reset();
        amend.type = CommandType.AMEND;
        amend.orderId = 7;
        amend.price = 123;
        amend.quantity = 456;
        final OrderCommand amended = roundTrip(amend, new ClusterCommands.Origin());
        assertEquals(CommandType.AMEND, amended.type);
        assertEquals(123, amended.price);
        assertEquals(456, amended.quantity);

        final OrderCommand all = new OrderCommand();
        all.reset();
        all.type = CommandType.CANCEL_ALL;
        all.accountId = "acct-9";
        all.symbol = -1;
        all.cancelAllCause = RejectReason.CANCEL_ALL_AFTER;
        final OrderCommand decoded = roundTrip(all, new ClusterCommands.Origin());
        assertEquals("acct-9", decoded.accountId);
        assertEquals(-1, decoded.symbol);
        assertEquals(RejectReason.CANCEL_ALL_AFTER, decoded.cancelAllCause);
    }

    @Test
    void aPlaceThroughAConnectionAndItsCancelOnDisconnectCarryTheConnectionsNumberThroughTheLog() throws Exception {
        final OrderCommand through = place();
        through.session = 0x0123_4567_89AB_CDEFL;
        assertEquals(0x0123_4567_89AB_CDEFL, roundTrip(through, new ClusterCommands.Origin()).session);
        final OrderCommand cancel = new OrderCommand();
        cancel.reset();
        cancel.type = CommandType.CANCEL_ALL;
        cancel.accountId = "acct-1";
        cancel.symbol = -1;
        cancel.cancelAllCause = RejectReason.CANCEL_ON_DISCONNECT;
        cancel.session = -42;
        final OrderCommand decoded = roundTrip(cancel, new ClusterCommands.Origin());
        assertEquals(RejectReason.CANCEL_ON_DISCONNECT, decoded.cancelAllCause);
        assertEquals(-42, decoded.session);
        assertEquals("acct-1", decoded.accountId);
    }

    @Test
    void aFlippedByteInTheRecordIsCaughtByItsCrc() {
        final ByteBuffer message = codec.encode(place(), 0, 1);
        final ByteBuffer received = ByteBuffer.allocate(ClusterCommands.maxMessageSize()).order(ByteOrder.LITTLE_ENDIAN);
        received.put(message.duplicate());
        final int last = message.limit() - 1;
        received.put(last, (byte) (received.get(last) ^ 0x40));
        final JournalCorruptedException e = assertThrows(JournalCorruptedException.class,
                () -> codec.decode(received, message.limit(), new OrderCommand(), new ClusterCommands.Origin(), 64));
        assertTrue(e.getMessage().contains("CRC"), e.getMessage());
    }

    @Test
    void aKeepFromCarriesItsMemberAndPositionAndIsNoCommand() throws Exception {
        final ByteBuffer keep = ClusterCommands.encodeKeepFrom(2, 0x0123_4567_89AB_CDEFL);
        assertTrue(ClusterCommands.isKeepFrom(keep, keep.limit()));
        assertEquals(2, ClusterCommands.keepFromMember(keep));
        assertEquals(0x0123_4567_89AB_CDEFL, ClusterCommands.keepFromPosition(keep));
        final ByteBuffer command = codec.encode(place(), 2, 1);
        assertTrue(!ClusterCommands.isKeepFrom(command, command.limit()), "a command is not a keepFrom");
        // a member of an older version, which knows only commands, skips it as undecodable: it takes no sequence
        final ByteBuffer received = ByteBuffer.allocate(ClusterCommands.maxMessageSize()).order(ByteOrder.LITTLE_ENDIAN);
        received.put(keep.duplicate());
        assertThrows(JournalCorruptedException.class, () -> codec.decode(received, keep.limit(), new OrderCommand(),
                new ClusterCommands.Origin(), 0));
    }

    @Test
    void aMessageOfAnotherVersionIsRefused() {
        final ByteBuffer message = codec.encode(place(), 0, 1);
        final ByteBuffer received = ByteBuffer.allocate(ClusterCommands.maxMessageSize()).order(ByteOrder.LITTLE_ENDIAN);
        received.put(message.duplicate());
        received.put(0, (byte) 9);
        assertThrows(JournalCorruptedException.class,
                () -> codec.decode(received, message.limit(), new OrderCommand(), new ClusterCommands.Origin(), 0));
    }

    @Test
    void anInstrumentThisMemberDoesNotHaveIsReportedAsSuch() {
        final ClusterCommands wider = new ClusterCommands(new JournalRecords(new String[] {"BTCUSD", "ETHUSD", "SOLUSD"},
                Map.of("BTCUSD", 0, "ETHUSD", 1, "SOLUSD", 2), Path.of("log")));
        final OrderCommand sol = place();
        sol.symbol = 2;
        final ByteBuffer message = wider.encode(sol, 0, 1);
        final ByteBuffer received = ByteBuffer.allocate(ClusterCommands.maxMessageSize()).order(ByteOrder.LITTLE_ENDIAN);
        received.put(message.duplicate());
        assertThrows(UnknownSymbolException.class,
                () -> codec.decode(received, message.limit(), new OrderCommand(), new ClusterCommands.Origin(), 0));
    }

    @Test
    void aCommandThatCannotBeEncodedIsRefusedBeforeItIsSent() {
        final OrderCommand noAccount = place();
        noAccount.accountId = null;
        assertThrows(IllegalArgumentException.class, () -> codec.encode(noAccount, 0, 1));
    }

    @Test
    void aSwitchMessageRoundTripsWithOrWithoutAKeyAndIsTakenForNeitherACommandNorAKeepFrom() throws Exception {
        final ByteBuffer keyed = ClusterCommands.encodeSwitch(2, 77L, 9L, "acct-ü", 60, "k1");
        assertEquals(new ClusterCommands.SwitchMessage(2, 77L, 9L, "acct-ü", 60, "k1"),
                ClusterCommands.decodeSwitch(keyed, keyed.limit(), 0));
        final ByteBuffer anonymous = ClusterCommands.encodeSwitch(0, 1L, 1L, "acct-1", 0, null);
        assertEquals(new ClusterCommands.SwitchMessage(0, 1L, 1L, "acct-1", 0, null),
                ClusterCommands.decodeSwitch(anonymous, anonymous.limit(), 0));
        assertTrue(ClusterCommands.isSwitch(keyed, keyed.limit()));
        assertTrue(!ClusterCommands.isKeepFrom(keyed, keyed.limit()));
        final ByteBuffer keepFrom = ClusterCommands.encodeKeepFrom(1, 5L);
        assertTrue(!ClusterCommands.isSwitch(keepFrom, keepFrom.limit()));
        final OrderCommand command = new OrderCommand();
        command.type = CommandType.CANCEL;
        command.orderId = 5;
        final ByteBuffer encoded = codec.encode(command, 1, 2L);
        assertTrue(!ClusterCommands.isSwitch(encoded, encoded.limit()));
    }

    @Test
    void aSwitchMessageCutShortOrWithoutAnAccountIsRefused() {
        final ByteBuffer message = ClusterCommands.encodeSwitch(2, 77L, 9L, "acct-1", 60, "k1");
        for (int length = 0; length < message.limit(); length++) {
            final int cut = length;
            assertThrows(JournalCorruptedException.class, () -> ClusterCommands.decodeSwitch(message, cut, 0),
                    "cut to " + cut);
        }
        final ByteBuffer noAccount = ClusterCommands.encodeSwitch(2, 77L, 9L, "", 60, "k1");
        assertThrows(JournalCorruptedException.class,
                () -> ClusterCommands.decodeSwitch(noAccount, noAccount.limit(), 0));
        assertThrows(IllegalArgumentException.class,
                () -> ClusterCommands.encodeSwitch(2, 77L, 9L, "a".repeat(257), 60, "k1"));
    }
}
