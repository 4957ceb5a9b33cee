package io.orderentry.cluster;

import io.aeron.cluster.ClusterMember;

import java.nio.file.Path;

/**
 * Cluster mode's settings ({@code ORDERS_CLUSTER_*}, README "Cluster mode"); absent in single-node mode.
 *
 * @param members              Aeron Cluster's member list, {@code id,ingress,consensus,log,catchup,archive|...} with
 *                             each endpoint {@code host:port}
 * @param memberId             this member's id in that list
 * @param directory            where this member keeps the cluster's log (the archive), its state and the Aeron files
 * @param leaderTimeoutMillis  how long without a heartbeat from the leader before the followers elect another
 * @param answerTimeoutMillis  how long a request waits for its command to come back committed before it is answered
 *                             {@code 503} (its outcome then unknown: the client retries with the same clientOrderId)
 */
public record ClusterSettings(String members, int memberId, Path directory, long leaderTimeoutMillis,
                              long answerTimeoutMillis) {

    /** @return the parsed member list; throws IllegalArgumentException naming what is wrong */
    public ClusterMember[] parsedMembers() {
        final ClusterMember[] parsed;
        try {
            parsed = ClusterMember.parse(members);
        } catch (final RuntimeException e) {
            throw new IllegalArgumentException("not an Aeron Cluster member list (id,ingress,consensus,log,catchup,"
                    + "archive|...): " + e.getMessage());
        }
        return parsed;
    }

    /** @return this member's entry */
    public ClusterMember self() {
        for (final ClusterMember member : parsedMembers()) {
            if (member.id() == memberId) {
                return member;
            }
        }
        throw new IllegalArgumentException("member id " + memberId + " is not in the member list");
    }

    /** @return the host part of an endpoint {@code host:port} */
    static String host(final String endpoint) {
        final int colon = endpoint.lastIndexOf(':');
        return colon < 0 ? endpoint : endpoint.substring(0, colon);
    }
}
