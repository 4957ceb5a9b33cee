package io.orderentry.cluster;

import io.aeron.exceptions.AeronException;

/**
 * Tells Aeron's expected cluster events from its errors. Aeron hands both to the same error handler: a
 * {@code ClusterEvent} (category {@code WARN}) reports what happens in every failover or member restart (the leader's
 * heartbeat timed out, a follower quorum went inactive, the quorum position went back as an election began), and
 * logging those at ERROR with a stack trace made every failover page an operator who alerts on ERROR (issue 34).
 */
public final class ClusterEvents {

    private ClusterEvents() {
    }

    /**
     * @return what happened, without Aeron's category prefix, when {@code error} is an event of the cluster's
     *         consensus that a failover or a restart produces; null when it is an error
     */
    public static String expected(final Throwable error) {
        if (!(error instanceof AeronException aeron) || aeron.category() != AeronException.Category.WARN) {
            return null;
        }
        final String message = String.valueOf(error.getMessage()).trim();
        final String prefix = AeronException.Category.WARN.name() + " - ";
        return message.startsWith(prefix) ? message.substring(prefix.length()) : message;
    }
}
