package io.orderentry.cluster;

import io.aeron.security.Authenticator;
import io.aeron.security.SessionProxy;
import org.agrona.collections.Long2ObjectHashMap;

import java.security.SecureRandom;
import java.util.Iterator;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Admits a connecting Aeron client (to the cluster's ingress, or to a member's archive) only if it proves it knows the
 * {@link ClusterSecret}, without the secret going on the wire: the client names the member it is
 * ({@link MemberCredentials}), this answers with a random 32-byte nonce, and the client must send back
 * {@link ClusterSecret#proof} of it. A client that names no member of the list, answers wrongly, or does not answer,
 * is rejected; one that answers right is authenticated with the principal "member N", which Aeron records in the log
 * with its session ({@link EngineService} accepts a member's {@code keepFrom} only from that member's session).
 *
 * <p>What a connecting client makes this hold (one pending entry per session between its connect request and the
 * decision) is bounded: at most {@link #MAX_PENDING} at once (a connect request beyond that is rejected) and each for
 * at most {@link #PENDING_MILLIS} (Aeron times out a session that does not answer and does not say so here: the entry
 * is dropped by the next call after that time).
 *
 * <p>Threads: Aeron calls every method on the agent thread of the component it authenticates for (the consensus
 * module, or the archive's conductor); {@link #rejected} on any.
 */
public final class MemberAuthenticator implements Authenticator {

    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(MemberAuthenticator.class);
    static final int MAX_PENDING = 1024;
    static final long PENDING_MILLIS = 30_000;
    private static final int NONCE_BYTES = 32;
    private static final long LOG_EVERY_MILLIS = 10_000;

    private final ClusterSecret secret;
    private final ClusterSecret.Purpose purpose;
    private final int[] members;
    private final SecureRandom random = new SecureRandom();
    private final Long2ObjectHashMap<Pending> pending = new Long2ObjectHashMap<>();
    private final AtomicLong rejected = new AtomicLong();
    private long lastSweepMs;
    private long lastLogMs = Long.MIN_VALUE / 2;
    private long rejectedAtLastLog;

    /** A session between its connect request and the decision. */
    private static final class Pending {
        final int member;
        final long sinceMs;
        byte[] nonce;
        boolean answered;
        boolean proved;

        Pending(final int member, final long sinceMs) {
            this.member = member;
            this.sinceMs = sinceMs;
        }
    }

    /**
     * @param purpose what this admits to (the proof differs, so an answer for one is worth nothing for the other)
     * @param members the ids of the cluster's members: the only ones a client may claim to be
     */
    public MemberAuthenticator(final ClusterSecret secret, final ClusterSecret.Purpose purpose, final int[] members) {
        this.secret = secret;
        this.purpose = purpose;
        this.members = members.clone();
    }

    @Override
    public void onConnectRequest(final long sessionId, final byte[] encodedCredentials, final long nowMs) {
        sweep(nowMs);
        final int member = MemberCredentials.memberOf(encodedCredentials);
        if (isMember(member) && pending.size() < MAX_PENDING) {
            pending.put(sessionId, new Pending(member, nowMs));
        }
        // otherwise nothing is kept: onConnectedSession finds no entry and rejects it
    }

    @Override
    public void onConnectedSession(final SessionProxy session, final long nowMs) {
        final Pending entry = pending.get(session.sessionId());
        if (entry == null) {
            reject(session, nowMs, "named no member of the cluster (or too many connections were pending)");
            return;
        }
        final byte[] nonce = new byte[NONCE_BYTES];
        random.nextBytes(nonce);
        if (session.challenge(nonce)) {
            entry.nonce = nonce;
        }
        // not sent: Aeron calls again on its next duty cycle
    }

    @Override
    public void onChallengeResponse(final long sessionId, final byte[] encodedCredentials, final long nowMs) {
        final Pending entry = pending.get(sessionId);
        if (entry != null && entry.nonce != null) {
            entry.answered = true;
            entry.proved = secret.verifies(purpose, entry.member, entry.nonce, encodedCredentials);
        }
    }

    @Override
    public void onChallengedSession(final SessionProxy session, final long nowMs) {
        final Pending entry = pending.get(session.sessionId());
        if (entry == null) {
            reject(session, nowMs, "did not answer the challenge in time");
            return;
        }
        if (!entry.answered) {
            return;   // Aeron calls again until it answers or its session times out
        }
        if (!entry.proved) {
            pending.remove(session.sessionId());
            reject(session, nowMs, "claimed to be member " + entry.member + " but does not know the cluster's secret");
            return;
        }
        if (session.authenticate(MemberCredentials.principal(entry.member))) {
            pending.remove(session.sessionId());
        }
        // not sent: Aeron calls again on its next duty cycle
    }

    /** @return connection attempts rejected since start; any thread */
    public long rejected() {
        return rejected.get();
    }

    private boolean isMember(final int member) {
        for (final int each : members) {
            if (each == member && member != MemberCredentials.NO_MEMBER) {
                return true;
            }
        }
        return false;
    }

    private void reject(final SessionProxy session, final long nowMs, final String why) {
        session.reject();
        final long count = rejected.incrementAndGet();
        if (nowMs - lastLogMs >= LOG_EVERY_MILLIS) {
            LOG.warn("cluster: rejected a client of the {} (session {}): it {}; {} rejected since the last such line,"
                    + " logged every {} s at most", purpose == ClusterSecret.Purpose.INGRESS ? "cluster's ingress"
                    : "archive", session.sessionId(), why, count - rejectedAtLastLog, LOG_EVERY_MILLIS / 1000);
            lastLogMs = nowMs;
            rejectedAtLastLog = count;
        }
    }

    /** Drops the entries of sessions that have been pending longer than {@link #PENDING_MILLIS}, once a second. */
    private void sweep(final long nowMs) {
        if (nowMs - lastSweepMs < 1_000) {
            return;
        }
        lastSweepMs = nowMs;
        final Iterator<Pending> entries = pending.values().iterator();
        while (entries.hasNext()) {
            if (nowMs - entries.next().sinceMs > PENDING_MILLIS) {
                entries.remove();
            }
        }
    }
}
