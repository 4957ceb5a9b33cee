package io.orderentry.cluster;

import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The HTTP side of the cluster's switch: each arming answered once, from the log or as not confirmed. */
class ClusterSwitchClientTest {

    private final LinkedBlockingQueue<ByteBuffer> sent = new LinkedBlockingQueue<>();
    private final AtomicLong term = new AtomicLong(3);
    private volatile boolean leader = true;
    private final ClusterSwitchClient client = new ClusterSwitchClient(message -> leader && sent.add(message),
            term::get, () -> 0, () -> 0, 1, 42);

    /** @return the request id of the next message sent into the log, checking what it says */
    private long nextSent(final String account, final int timeout) throws InterruptedException {
        final ByteBuffer message = sent.poll(10, TimeUnit.SECONDS);
        assertNotNull(message, "sent into the log");
        final ClusterCommands.SwitchMessage decoded;
        try {
            decoded = ClusterCommands.decodeSwitch(message, message.limit(), 0);
        } catch (final io.orderentry.journal.JournalCorruptedException e) {
            throw new AssertionError(e);
        }
        assertEquals(1, decoded.member());
        assertEquals(42, decoded.incarnation());
        assertEquals(account, decoded.account());
        assertEquals(timeout, decoded.timeoutSeconds());
        return decoded.requestId();
    }

    @Test
    void anArmingIsAnsweredWithTheDeadlineOnceTheLogAppliedItAndOnlyOnce() throws Exception {
        final SwitchAnswer answer = new SwitchAnswer();
        client.arm("acct-1", 30, "k1", answer);
        final long requestId = nextSent("acct-1", 30);
        assertTrue(answer.answers.isEmpty(), "not answered before the log has it");
        client.applied(requestId, 123_000_000L);
        assertEquals("armed 123000000", answer.await());
        client.applied(requestId, 456L);
        client.newTerm(9);
        assertTrue(answer.answers.isEmpty(), "answered once");
        assertEquals(0, client.waiting());
    }

    @Test
    void manyShortLivedArmingsLeaveNothingQueuedOnceAnswered() throws Exception {
        for (int i = 0; i < 2_000; i++) {
            final SwitchAnswer answer = new SwitchAnswer();
            client.arm("acct-" + i, 30, null, answer);
            client.applied(nextSent("acct-" + i, 30), 1L);
            assertEquals("armed 1", answer.await());
        }
        assertEquals(0, client.waiting());
        assertEquals(0, client.queued(), "no answered arming's timeout stays queued");
    }

    @Test
    void anArmingNoLeaderTookIsAnswered503AtOnce() throws Exception {
        leader = false;
        final SwitchAnswer answer = new SwitchAnswer();
        client.arm("acct-1", 30, "k1", answer);
        assertEquals("JOURNAL_UNAVAILABLE", answer.await());
        assertEquals(0, client.waiting());
    }

    @Test
    void aNewTermAnswersTheArmingsSentInEarlierTermsAndKeepsWaitingForTheOthers() throws Exception {
        final SwitchAnswer early = new SwitchAnswer();
        client.arm("acct-1", 30, "k1", early);
        nextSent("acct-1", 30);
        term.set(4);
        final SwitchAnswer late = new SwitchAnswer();
        client.arm("acct-2", 30, "k2", late);
        final long lateId = nextSent("acct-2", 30);
        client.newTerm(4);
        assertEquals("JOURNAL_UNAVAILABLE", early.await());
        assertTrue(late.answers.isEmpty());
        client.applied(lateId, 5L);
        assertEquals("armed 5", late.await());
    }

    @Test
    void anArmingStillQueuedWhenANewTermBeginsIsSentInItAndNotAnsweredAsLost() throws Exception {
        final java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);
        final java.util.concurrent.CountDownLatch sending = new java.util.concurrent.CountDownLatch(1);
        final LinkedBlockingQueue<ByteBuffer> log = new LinkedBlockingQueue<>();
        try (ClusterSwitchClient slow = new ClusterSwitchClient(message -> {
            sending.countDown();
            try {
                release.await();
            } catch (final InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return log.add(message);
        }, term::get, () -> 0, () -> 0, 1, 42)) {
            final SwitchAnswer first = new SwitchAnswer();
            final SwitchAnswer queued = new SwitchAnswer();
            slow.arm("acct-1", 30, null, first);
            assertTrue(sending.await(10, TimeUnit.SECONDS));
            slow.arm("acct-2", 30, null, queued);   // behind the first, whose send is held up
            slow.newTerm(9);
            assertEquals("JOURNAL_UNAVAILABLE", first.await(), "sent in term 3");
            assertTrue(queued.answers.isEmpty(), "not sent yet: it goes in the new term");
            term.set(9);
            release.countDown();
            log.poll(10, TimeUnit.SECONDS);
            final ByteBuffer second = log.poll(10, TimeUnit.SECONDS);
            assertNotNull(second);
            slow.applied(ClusterCommands.decodeSwitch(second, second.limit(), 0).requestId(), 7L);
            assertEquals("armed 7", queued.await());
        }
    }

    @Test
    void anArmingTheLogRefusedIsAnswered503() throws Exception {
        final SwitchAnswer answer = new SwitchAnswer();
        client.arm("acct-1", 30, "k1", answer);
        client.refused(nextSent("acct-1", 30), "a timeout of 4000 s");
        assertEquals("JOURNAL_UNAVAILABLE", answer.await());
    }

    @Test
    void armingsBeyondTheBoundAreAnsweredOverloadedAndAStopAnswersEveryWaitingOne() throws Exception {
        final SwitchAnswer collect = new SwitchAnswer();
        for (int i = 0; i < ClusterSwitchClient.MAX_WAITING + 5; i++) {
            client.arm("acct-" + i, 30, null, collect);
        }
        assertEquals(5, collect.answers.size());
        assertTrue(collect.answers.stream().allMatch("OVERLOADED"::equals));
        client.close();
        assertEquals(ClusterSwitchClient.MAX_WAITING + 5, collect.answers.size(), "every waiting arming answered");
        assertEquals(0, client.waiting());
    }
}
