package io.orderentry.cluster;

import io.aeron.logbuffer.Header;
import io.orderentry.engine.CommandResult;
import io.orderentry.engine.EngineConfig;
import io.orderentry.engine.Matcher;
import io.orderentry.engine.OrderType;
import io.orderentry.engine.Side;
import io.orderentry.engine.TimeInForce;
import io.orderentry.journal.Commands;
import io.orderentry.journal.JournalRecords;
import io.orderentry.pipeline.CommandType;
import io.orderentry.pipeline.EngineEvent;
import io.orderentry.pipeline.EventOutput;
import io.orderentry.pipeline.EventType;
import io.orderentry.pipeline.MatcherMetrics;
import io.orderentry.pipeline.MatcherStage;
import io.orderentry.pipeline.OrderCommand;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.locks.ReentrantLock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The clustered service over a log given message by message, without Aeron's machinery. */
class EngineServiceTest {

    private static final String[] SYMBOLS = {"BTCUSD"};
    private static final Map<String, Integer> INDEX = Map.of("BTCUSD", 0);
    private static final long MINE = 42;

    /** Collects what the stage publishes, copied out of reused slots. */
    private static final class Collected implements EventOutput {
        final List<EngineEvent> events = new ArrayList<>();
        private final EngineEvent slot = new EngineEvent();

        @Override
        public long next() {
            return events.size();
        }

        @Override
        public EngineEvent get(final long sequence) {
            return slot;
        }

        @Override
        public void publish(final long sequence) {
            final EngineEvent copy = new EngineEvent();
            copy.type = slot.type;
            copy.commandSequence = slot.commandSequence;
            copy.replay = slot.replay;
            copy.requestId = slot.requestId;
            copy.replyTo = slot.replyTo;
            copy.result = slot.result;
            copy.orderId = slot.orderId;
            copy.timestampMicros = slot.timestampMicros;
            copy.keyId = slot.keyId;
            copy.journalFailed = slot.journalFailed;
            copy.rejectReason = slot.rejectReason;
            copy.accountId = slot.accountId;
            events.add(copy);
        }

        List<EngineEvent> completions() {
            return events.stream().filter(e -> e.type == EventType.COMMAND_COMPLETED).toList();
        }
    }

    private final Collected output = new Collected();
    private final MatcherStage stage = new MatcherStage(sink -> new Matcher(1, new EngineConfig(1000, 1000, 1000, 1000),
            sink), output, new MatcherMetrics());
    private final ClusterCommands codec = new ClusterCommands(new JournalRecords(SYMBOLS, INDEX, Path.of("log")));
    private final LogRetention retention = new LogRetention(new int[] {0, 1, 2}, 1);
    private final EngineService service = new EngineService(stage, new ReentrantLock(),
            new ClusterCommands(new JournalRecords(SYMBOLS, INDEX, Path.of("log"))), 1, MINE, () -> { }, null,
            () -> true, retention);
    private final Header header = new Header(0, 16).buffer(new UnsafeBuffer(new byte[64])).offset(0);

    private static OrderCommand order(final String clientOrderId, final long requestId) {
        final OrderCommand c = new OrderCommand();
        Commands.place(c, "acct", clientOrderId, 0, Side.BUY, OrderType.LIMIT, TimeInForce.GTC, false, 100, 10);
        c.requestId = requestId;
        c.replyTo = 0;
        c.keyId = "k1";
        return c;
    }

    private void deliver(final OrderCommand command, final int member, final long incarnation, final long timestamp) {
        final ByteBuffer message = codec.encode(command, member, incarnation);
        service.onSessionMessage(null, timestamp, new UnsafeBuffer(message.array(), 0, message.limit()), 0,
                message.limit(), header);
    }

    /** A cluster that only says which role this member has: all the service asks of it at start. */
    private static io.aeron.cluster.service.Cluster inRole(final io.aeron.cluster.service.Cluster.Role role) {
        return (io.aeron.cluster.service.Cluster) java.lang.reflect.Proxy.newProxyInstance(
                EngineServiceTest.class.getClassLoader(), new Class<?>[] {io.aeron.cluster.service.Cluster.class},
                (proxy, method, args) -> {
                    if (method.getName().equals("role")) {
                        return role;
                    }
                    if (method.getName().equals("logPosition")) {
                        return 0L;
                    }
                    throw new UnsupportedOperationException(method.getName());
                });
    }

    @Test
    void theRoleListenerHearsTheRoleAtStartAndEveryChange() {
        final List<io.aeron.cluster.service.Cluster.Role> heard = new ArrayList<>();
        service.onRole(heard::add);
        service.onStart(inRole(io.aeron.cluster.service.Cluster.Role.FOLLOWER), null);
        service.onRoleChange(io.aeron.cluster.service.Cluster.Role.LEADER);
        service.onRoleChange(io.aeron.cluster.service.Cluster.Role.FOLLOWER);
        assertEquals(List.of(io.aeron.cluster.service.Cluster.Role.FOLLOWER, io.aeron.cluster.service.Cluster.Role.LEADER,
                io.aeron.cluster.service.Cluster.Role.FOLLOWER), heard);
        assertEquals(io.aeron.cluster.service.Cluster.Role.FOLLOWER, service.role());
    }

    @Test
    void onlyTheCommandsThisMemberSentInThisIncarnationAreAnswered() {
        service.onStart(inRole(io.aeron.cluster.service.Cluster.Role.FOLLOWER), null);
        deliver(order("a", 7), 1, MINE, 1_000);
        deliver(order("b", 8), 2, MINE, 1_001);          // another member's
        deliver(order("c", 9), 1, MINE + 1, 1_002);      // this member's, before it restarted
        final List<EngineEvent> done = output.completions();
        assertEquals(3, done.size());
        assertFalse(done.get(0).replay);
        assertEquals(7, done.get(0).requestId);
        assertEquals(0, done.get(0).replyTo);
        assertEquals("k1", done.get(0).keyId);
        for (final EngineEvent other : done.subList(1, 3)) {
            assertTrue(other.replay, "nobody here waits for it");
            assertEquals(-1, other.replyTo);
            assertEquals(CommandResult.PLACED, other.result);
        }
    }

    @Test
    void commandsAreNumberedInLogOrderAndStampedWithTheLogsTimeNeverGoingBack() {
        service.onStart(inRole(io.aeron.cluster.service.Cluster.Role.FOLLOWER), null);
        deliver(order("a", 1), 1, MINE, 5_000);
        deliver(order("b", 2), 1, MINE, 4_000);          // the log's clock stepped back (a new leader's)
        deliver(order("c", 3), 1, MINE, 6_000);
        final List<EngineEvent> done = output.completions();
        assertEquals(List.of(1L, 2L, 3L), done.stream().map(e -> e.commandSequence).toList());
        final List<EngineEvent> accepted = output.events.stream().filter(e -> e.type == EventType.ORDER_ACCEPTED)
                .toList();
        assertEquals(List.of(5_000L, 5_000L, 6_000L), accepted.stream().map(e -> e.timestampMicros).toList());
        assertEquals(3, service.appliedCommands());
    }

    @Test
    void aMessageThatCannotBeDecodedIsSkippedWithoutTakingASequence() {
        service.onStart(inRole(io.aeron.cluster.service.Cluster.Role.FOLLOWER), null);
        final byte[] garbage = {9, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23,
            24, 25, 26, 27, 28, 29, 30, 31};
        service.onSessionMessage(null, 1, new UnsafeBuffer(garbage), 0, garbage.length, header);
        deliver(order("a", 1), 1, MINE, 2);
        assertEquals(1, service.undecodable());
        assertEquals(1, output.completions().get(0).commandSequence);
    }

    @Test
    void aRequestWhoseCommandANewLeaderDoesNotHaveIsAnsweredAsNotExecuted() {
        service.onStart(inRole(io.aeron.cluster.service.Cluster.Role.FOLLOWER), null);
        service.inFlight().sent(7, 0, 3, CommandType.PLACE);    // sent to the leader of term 3, which died
        service.inFlight().sent(8, 0, 4, CommandType.PLACE);    // sent to the new one
        service.onNewLeadershipTermEvent(4, 0, 0, 0, 1, 0, java.util.concurrent.TimeUnit.MICROSECONDS, 0);
        final List<EngineEvent> done = output.completions();
        assertEquals(1, done.size());
        assertEquals(7, done.get(0).requestId);
        assertTrue(output.events.stream().anyMatch(e -> e.type == EventType.COMMAND_COMPLETED && e.requestId == 7));
        assertEquals(1, service.lostCommands());
        deliver(order("b", 8), 1, MINE, 10);
        assertEquals(2, output.completions().size());
        assertEquals(CommandResult.PLACED, output.completions().get(1).result);
        assertEquals(1, service.lostCommands());
    }

    @Test
    void theStartTellsTheConsumersThatLiveCommandsFollow() {
        service.onStart(inRole(io.aeron.cluster.service.Cluster.Role.FOLLOWER), null);
        assertEquals(EventType.REPLAY_COMPLETED, output.events.get(0).type);
    }

    /** A client session as Aeron gives it to the service: its id and the principal its authenticator gave it. */
    private static io.aeron.cluster.service.ClientSession session(final long id, final byte[] principal) {
        return (io.aeron.cluster.service.ClientSession) java.lang.reflect.Proxy.newProxyInstance(
                EngineServiceTest.class.getClassLoader(), new Class<?>[] {io.aeron.cluster.service.ClientSession.class},
                (proxy, method, args) -> switch (method.getName()) {
                    case "id" -> id;
                    case "encodedPrincipal" -> principal;
                    default -> throw new UnsupportedOperationException(method.getName());
                });
    }

    /** @return the session of member {@code member}'s cluster client, as the authenticator admitted it */
    private static io.aeron.cluster.service.ClientSession sessionOf(final int member) {
        return session(100 + member, MemberCredentials.principal(member));
    }

    private void keepFrom(final io.aeron.cluster.service.ClientSession from, final int member, final long position) {
        final ByteBuffer keep = ClusterCommands.encodeKeepFrom(member, position);
        service.onSessionMessage(from, 1, new UnsafeBuffer(keep.array(), 0, keep.limit()), 0, keep.limit(), header);
    }

    @Test
    void aKeepFromIsIgnoredUnlessTheSessionThatSentItIsTheMemberItNames() {
        service.onStart(inRole(io.aeron.cluster.service.Cluster.Role.FOLLOWER), null);
        keepFrom(sessionOf(0), 0, 5_000);
        keepFrom(sessionOf(1), 1, 5_000);
        keepFrom(sessionOf(2), 2, 5_000);
        assertEquals(5_000, retention.floor());
        // member 0's session says member 2 keeps from much further on (would let every member purge what 2 needs)
        keepFrom(sessionOf(0), 2, 900_000);
        // a session with no member's principal (recorded before members authenticated), or none at all
        keepFrom(session(7, new byte[0]), 2, 900_000);
        keepFrom(null, 2, 900_000);
        keepFrom(sessionOf(0), 0, 900_000);
        keepFrom(sessionOf(1), 1, 900_000);
        assertEquals(5_000, retention.floor(), "member 2 still said only 5,000");
        assertEquals(3, service.forgedKeepFrom());
        keepFrom(sessionOf(2), 2, 900_000);
        assertEquals(900_000, retention.floor());
        assertEquals(3, service.forgedKeepFrom());
        assertEquals(0, service.undecodable());
    }

    @Test
    void aMembersKeepFromTakesNoCommandSequenceReachesNoStageAndMovesTheFloorOnceEveryMemberSaidIt() {
        service.onStart(inRole(io.aeron.cluster.service.Cluster.Role.FOLLOWER), null);
        final int before = output.events.size();
        for (int member = 0; member < 3; member++) {
            keepFrom(sessionOf(member), member, 1_000L * (member + 1));
        }
        assertEquals(before, output.events.size(), "nothing published");
        assertEquals(0, service.undecodable());
        assertEquals(1_000, retention.floor());
        assertEquals(2_000, retention.ownKeepFrom(), "this is member 1");
        deliver(order("a", 1), 1, MINE, 2);
        assertEquals(1, output.completions().get(0).commandSequence, "the first command is still the first");
    }

    /** A follower's cluster that records the timers the service asks its consensus module for. */
    private static io.aeron.cluster.service.Cluster recordingTimers(final List<String> timers) {
        return (io.aeron.cluster.service.Cluster) java.lang.reflect.Proxy.newProxyInstance(
                EngineServiceTest.class.getClassLoader(), new Class<?>[] {io.aeron.cluster.service.Cluster.class},
                (proxy, method, args) -> switch (method.getName()) {
                    case "role" -> io.aeron.cluster.service.Cluster.Role.FOLLOWER;
                    case "logPosition" -> 0L;
                    case "scheduleTimer" -> timers.add("schedule " + args[0] + " at " + args[1]);
                    case "cancelTimer" -> timers.add("cancel " + args[0]);
                    default -> throw new UnsupportedOperationException(method.getName());
                });
    }

    private void armSwitch(final int member, final long requestId, final String account, final int timeoutSeconds,
                           final long timestamp) {
        final ByteBuffer message = ClusterCommands.encodeSwitch(member, MINE, requestId, account, timeoutSeconds, "k1");
        service.onSessionMessage(null, timestamp, new UnsafeBuffer(message.array(), 0, message.limit()), 0,
                message.limit(), header);
    }

    @Test
    void anArmingThisMemberSentIsAnsweredWithTheDeadlineWhenTheLogAppliesItAndAnotherMembersIsNot() throws Exception {
        service.onStart(recordingTimers(new ArrayList<>()), null);
        final java.util.concurrent.LinkedBlockingQueue<ByteBuffer> log = new java.util.concurrent.LinkedBlockingQueue<>();
        final SwitchAnswer answer = new SwitchAnswer();
        try (ClusterSwitchClient client = new ClusterSwitchClient(log::add, () -> 0, service::switchesArmed,
                service::switchesFired, 1, MINE)) {
            service.answerSwitchesWith(client);
            client.arm("acct", 30, "k1", answer);
            final ByteBuffer sent = log.poll(10, java.util.concurrent.TimeUnit.SECONDS);
            armSwitch(2, 1, "acct", 60, 1_000L);   // another member's request 1: not this member's to answer
            assertTrue(answer.answers.isEmpty());
            service.onSessionMessage(null, 5_000_000L, new UnsafeBuffer(sent.array(), 0, sent.limit()), 0,
                    sent.limit(), header);
            assertEquals("armed 35000000", answer.await());
            assertEquals(1, client.armedCount());
        }
    }

    @Test
    void aSwitchArmedThroughTheLogTakesNoCommandSequenceAndSchedulesATimerAtTheLogsTimePlusItsTimeout() {
        final List<String> timers = new ArrayList<>();
        service.onStart(recordingTimers(timers), null);
        final int before = output.events.size();
        armSwitch(2, 5, "acct", 10, 1_000_000L);
        assertEquals(List.of("schedule 1 at 11000000"), timers);
        assertEquals(before, output.events.size(), "nothing published");
        assertEquals(1, service.switchesArmed());
        deliver(order("a", 1), 1, MINE, 2_000_000L);
        assertEquals(1, output.completions().get(0).commandSequence, "the first command is still the first");
    }

    @Test
    void aFiredSwitchCancelsTheAccountsOrdersOnceAsTheNextCommandWithItsCause() {
        final List<String> timers = new ArrayList<>();
        service.onStart(recordingTimers(timers), null);
        deliver(order("a", 1), 2, MINE, 1_000L);
        armSwitch(2, 5, "acct", 10, 2_000L);
        service.onTimerEvent(1, 10_002_000L);
        final List<EngineEvent> done = output.completions();
        assertEquals(2, done.size());
        final EngineEvent cancelAll = done.get(1);
        assertEquals(CommandResult.CANCELED_ALL, cancelAll.result);
        assertEquals(2, cancelAll.commandSequence, "the next command sequence, on every member alike");
        assertTrue(cancelAll.replay, "nobody waits for its answer");
        assertTrue(output.events.stream().anyMatch(e -> e.type == EventType.ORDER_UPDATED
                && e.rejectReason == io.orderentry.engine.RejectReason.CANCEL_ALL_AFTER), "the order canceled");
        assertEquals(1, service.switchesFired());
        assertEquals(0, service.switchesArmed());
        service.onTimerEvent(1, 10_003_000L);
        assertEquals(2, output.completions().size(), "it fires once");
        assertEquals(2, service.appliedCommands());
    }

    @Test
    void aTimerOfASwitchRefreshedSinceItFiredInTheLeadersClockDoesNothing() {
        final List<String> timers = new ArrayList<>();
        service.onStart(recordingTimers(timers), null);
        deliver(order("a", 1), 2, MINE, 1_000L);
        armSwitch(2, 5, "acct", 1, 2_000L);
        armSwitch(0, 6, "acct", 1, 900_000L);   // a refresh on another member, in the log before the timer's event
        service.onTimerEvent(1, 1_002_000L);
        assertEquals(List.of("schedule 1 at 1002000", "cancel 1", "schedule 2 at 1900000"), timers);
        assertEquals(1, output.completions().size(), "the order stays");
        assertEquals(1, service.switchesArmed());
        assertEquals(0, service.switchesFired());
    }
}
