package io.orderentry.cluster;

import io.orderentry.account.DeadMansSwitch;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * The cluster's dead man's switches: one per account for the whole cluster. Every member's {@link EngineService} holds
 * the same switches, because they change only as the log says: a member's HTTP side sends an arming (a refresh, a
 * disarm) into the log ({@link ClusterSwitchClient}); every member applies it at the same log position and asks its
 * consensus module for a timer at the deadline, in the log's clock. Only the leader's consensus module fires a timer:
 * it appends the timer's event to the log, and every member applies that as the account's cancel-all, with the
 * command sequence it takes there. A leader that dies leaves its timers to the next, which tracked them from the same
 * log; so a switch is armed on one member, refreshed on any other, and fires once, whichever member leads then.
 *
 * <p>Each arming takes a new timer id and cancels the switch's former timer: a timer the leader fired just before a
 * refresh reached the log finds no switch under its id when its event is applied, and changes nothing.
 *
 * <p>The switches are part of the cluster's snapshot ({@link #section}, {@link #restore}); the timers are part of the
 * consensus module's.
 *
 * <p>Threads: the service's thread; {@link #armedCount()} and {@link #firedCount()} any.
 */
final class ClusterSwitches {

    /** The consensus module's timers, in the log's clock (microseconds). */
    interface Timers {
        void schedule(long correlationId, long deadlineMicros);

        void cancel(long correlationId);
    }

    /** A switch that fired: the account whose open orders are canceled, and the key that armed it. */
    record Fired(String account, String keyId) {
    }

    /** The first bytes of the switches' section at the start of a cluster snapshot ("OESWITCH"). */
    static final long MAGIC = 0x4F45535749544348L;
    private static final int VERSION = 1;

    private record Armed(long correlationId, long deadlineMicros, String keyId) {
    }

    private final Map<String, Armed> byAccount = new HashMap<>();
    private final Map<Long, String> byTimer = new HashMap<>();
    private long nextTimer = 1;
    private volatile int armedCount;
    private volatile long firedCount;

    /**
     * Arms, re-arms or (with 0) disarms the account's switch as of the log's time {@code nowMicros}.
     *
     * @return the deadline in microseconds, or 0 when disarmed
     * @throws IllegalArgumentException when the timeout is outside 0..{@value DeadMansSwitch#MAX_TIMEOUT_SECONDS}
     */
    long arm(final String account, final int timeoutSeconds, final String keyId, final long nowMicros,
             final Timers timers) {
        if (timeoutSeconds < 0 || timeoutSeconds > DeadMansSwitch.MAX_TIMEOUT_SECONDS) {
            throw new IllegalArgumentException("a timeout of " + timeoutSeconds + " s, outside 0.."
                    + DeadMansSwitch.MAX_TIMEOUT_SECONDS);
        }
        final Armed previous = byAccount.remove(account);
        if (previous != null) {
            byTimer.remove(previous.correlationId());
            timers.cancel(previous.correlationId());
        }
        long deadline = 0;
        if (timeoutSeconds > 0) {
            final long timer = nextTimer++;
            deadline = nowMicros + timeoutSeconds * 1_000_000L;
            byAccount.put(account, new Armed(timer, deadline, keyId));
            byTimer.put(timer, account);
            timers.schedule(timer, deadline);
        }
        armedCount = byAccount.size();
        return deadline;
    }

    /** @return the switch timer {@code correlationId} fires, or null when that timer no longer stands for one */
    Fired fire(final long correlationId) {
        final String account = byTimer.remove(correlationId);
        if (account == null) {
            return null;
        }
        final Armed armed = byAccount.remove(account);
        armedCount = byAccount.size();
        firedCount++;
        return new Fired(account, armed.keyId());
    }

    /** @return accounts whose switch is armed; any thread */
    int armedCount() {
        return armedCount;
    }

    /** @return switches this member applied as fired since its start; any thread */
    long firedCount() {
        return firedCount;
    }

    /** @return the switches as the section that starts the cluster's snapshot: magic, length, then the switches */
    byte[] section() {
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeInt(VERSION);
            out.writeLong(nextTimer);
            out.writeInt(byAccount.size());
            for (final Map.Entry<String, Armed> entry : new TreeMap<>(byAccount).entrySet()) {
                out.writeUTF(entry.getKey());
                out.writeLong(entry.getValue().correlationId());
                out.writeLong(entry.getValue().deadlineMicros());
                out.writeBoolean(entry.getValue().keyId() != null);
                if (entry.getValue().keyId() != null) {
                    out.writeUTF(entry.getValue().keyId());
                }
            }
        } catch (final IOException e) {
            throw new UncheckedIOException("cannot happen in memory", e);
        }
        final byte[] body = bytes.toByteArray();
        final ByteArrayOutputStream section = new ByteArrayOutputStream(body.length + 12);
        try (DataOutputStream out = new DataOutputStream(section)) {
            out.writeLong(MAGIC);
            out.writeInt(body.length);
            out.write(body);
        } catch (final IOException e) {
            throw new UncheckedIOException("cannot happen in memory", e);
        }
        return section.toByteArray();
    }

    /**
     * Replaces the switches with those of a snapshot's section (its body, after magic and length); the consensus
     * module restores their timers from its own snapshot.
     *
     * @throws IOException when the section is not one {@link #section} wrote
     */
    void restore(final byte[] body) throws IOException {
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(body))) {
            final int version = in.readInt();
            if (version != VERSION) {
                throw new IOException("the snapshot's dead man's switches are in version " + version + ", this build"
                        + " reads " + VERSION);
            }
            final long next = in.readLong();
            final int count = in.readInt();
            if (count < 0) {
                throw new IOException("the snapshot holds " + count + " dead man's switches");
            }
            byAccount.clear();
            byTimer.clear();
            for (int i = 0; i < count; i++) {
                final String account = in.readUTF();
                final long timer = in.readLong();
                final long deadline = in.readLong();
                final String keyId = in.readBoolean() ? in.readUTF() : null;
                if (timer <= 0 || timer >= next || byTimer.put(timer, account) != null) {
                    throw new IOException("the snapshot's dead man's switch of " + account + " has timer " + timer);
                }
                byAccount.put(account, new Armed(timer, deadline, keyId));
            }
            if (in.available() != 0) {
                throw new IOException("the snapshot's dead man's switches end " + in.available() + " bytes early");
            }
            nextTimer = next;
            armedCount = byAccount.size();
        }
    }
}
