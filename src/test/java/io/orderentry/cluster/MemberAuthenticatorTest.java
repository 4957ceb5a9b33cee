package io.orderentry.cluster;

import io.aeron.security.SessionProxy;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** The challenge-response admission of the members' clients, driven as Aeron drives it. */
class MemberAuthenticatorTest {

    private static final ClusterSecret SECRET = ClusterSecret.of(
            "the members' secret, 32 bytes or more".getBytes(StandardCharsets.UTF_8));
    private static final ClusterSecret OTHER = ClusterSecret.of(
            "another cluster's secret, just as long".getBytes(StandardCharsets.UTF_8));

    private final MemberAuthenticator authenticator = new MemberAuthenticator(SECRET, ClusterSecret.Purpose.INGRESS,
            new int[] {0, 1, 2});

    /** What Aeron's session proxy was told. */
    private static final class Session implements SessionProxy {
        final long id;
        byte[] challenge;
        byte[] principal;
        boolean rejected;

        Session(final long id) {
            this.id = id;
        }

        @Override
        public long sessionId() {
            return id;
        }

        @Override
        public boolean challenge(final byte[] encodedChallenge) {
            challenge = encodedChallenge;
            return true;
        }

        @Override
        public boolean authenticate(final byte[] encodedPrincipal) {
            principal = encodedPrincipal;
            return true;
        }

        @Override
        public void reject() {
            rejected = true;
        }
    }

    /** Connects as {@code credentials} would, the way Aeron calls the authenticator; returns the session. */
    private Session connect(final long id, final MemberCredentials credentials, final long nowMs) {
        final Session session = new Session(id);
        authenticator.onConnectRequest(id, credentials.encodedCredentials(), nowMs);
        authenticator.onConnectedSession(session, nowMs);
        if (session.rejected) {
            return session;
        }
        assertNotNull(session.challenge, "challenged");
        authenticator.onChallengeResponse(id, credentials.onChallenge(session.challenge), nowMs);
        authenticator.onChallengedSession(session, nowMs);
        return session;
    }

    @Test
    void aMemberThatProvesItKnowsTheSecretIsAdmittedAsThatMember() {
        final Session session = connect(7, new MemberCredentials(SECRET, ClusterSecret.Purpose.INGRESS, 2), 1_000);
        assertFalse(session.rejected);
        assertEquals(2, MemberCredentials.memberOf(session.principal));
        assertEquals(0, authenticator.rejected());
    }

    @Test
    void aClientWithAnotherSecretIsRejected() {
        final Session session = connect(7, new MemberCredentials(OTHER, ClusterSecret.Purpose.INGRESS, 2), 1_000);
        assertEquals(true, session.rejected);
        assertNull(session.principal);
        assertEquals(1, authenticator.rejected());
    }

    @Test
    void anAnswerMadeForTheArchiveIsNoAnswerForTheIngress() {
        final Session session = connect(7, new MemberCredentials(SECRET, ClusterSecret.Purpose.ARCHIVE, 2), 1_000);
        assertEquals(true, session.rejected);
    }

    @Test
    void aClientWithoutCredentialsOrNamingNoMemberOfTheListIsRejectedWithoutAChallenge() {
        for (final byte[] credentials : new byte[][] {new byte[0], null, MemberCredentials.principal(3),
            "secret".getBytes(StandardCharsets.UTF_8)}) {
            final Session session = new Session(9);
            authenticator.onConnectRequest(9, credentials, 1_000);
            authenticator.onConnectedSession(session, 1_000);
            assertEquals(true, session.rejected);
            assertNull(session.challenge);
        }
        assertEquals(4, authenticator.rejected());
    }

    @Test
    void aSessionIsDecidedOnlyOnceItAnswersAndItsEntryExpiresIfItNeverDoes() {
        final Session session = new Session(5);
        authenticator.onConnectRequest(5, MemberCredentials.principal(1), 1_000);
        authenticator.onConnectedSession(session, 1_000);
        authenticator.onChallengedSession(session, 1_001);
        assertFalse(session.rejected, "still waiting for its answer");
        assertNull(session.principal);
        // another connect request long after: the sweep drops the silent session's entry
        authenticator.onConnectRequest(6, MemberCredentials.principal(1), 1_000 + MemberAuthenticator.PENDING_MILLIS + 2);
        authenticator.onChallengeResponse(5, new MemberCredentials(SECRET, ClusterSecret.Purpose.INGRESS, 1)
                .onChallenge(session.challenge), 1_000 + MemberAuthenticator.PENDING_MILLIS + 3);
        authenticator.onChallengedSession(session, 1_000 + MemberAuthenticator.PENDING_MILLIS + 3);
        assertEquals(true, session.rejected, "too late");
    }

    @Test
    void atMostMaxPendingSessionsAreHeldAtOnceAndTheRestAreRejected() {
        for (long id = 0; id < MemberAuthenticator.MAX_PENDING; id++) {
            authenticator.onConnectRequest(id, MemberCredentials.principal(0), 1_000);
        }
        final Session beyond = new Session(MemberAuthenticator.MAX_PENDING);
        authenticator.onConnectRequest(beyond.id, MemberCredentials.principal(0), 1_000);
        authenticator.onConnectedSession(beyond, 1_000);
        assertEquals(true, beyond.rejected);
    }

    @Test
    void thePrincipalRoundTripsAndNothingElseNamesAMember() {
        assertEquals(4, MemberCredentials.memberOf(MemberCredentials.principal(4)));
        assertEquals(MemberCredentials.NO_MEMBER, MemberCredentials.memberOf(new byte[0]));
        assertEquals(MemberCredentials.NO_MEMBER, MemberCredentials.memberOf(new byte[8]));
        assertEquals(MemberCredentials.NO_MEMBER, MemberCredentials.memberOf(null));
        assertArrayEquals(MemberCredentials.principal(1),
                new MemberCredentials(OTHER, ClusterSecret.Purpose.ARCHIVE, 1).encodedCredentials(),
                "the first message names the member and carries no secret");
    }

    @Test
    void aSecretShorterThan32BytesIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> ClusterSecret.of(new byte[31]));
    }
}
