/**
 * Cluster mode: the engine as Aeron Cluster's clustered service ({@link EngineService}), the input ring's consumer that
 * sends each command into the replicated log ({@link ClusterIngressStage}), the command's message in that log
 * ({@link ClusterCommands}: who waits for it, then the journal's record), this member's Aeron components
 * ({@link ClusterNode}), the members' shared secret, and the purge of the log. Unused on a single node.
 * <p>{@link EngineService} runs on the clustered service thread (clustered-service-0-0); {@link ClusterIngressStage} on the
 * input ring's consumer thread (oe-cluster), with a keeper thread (oe-cluster-client); {@link LogPurger} on
 * oe-cluster-log-purge; the member authenticator on Aeron's agent threads.
 * <p>Depends on pipeline ({@code OrderCommand}, {@code MatcherStage}), journal ({@code JournalRecords} and its
 * exceptions), auth ({@code PrivateFiles}) and config ({@link ClusterConfig}'s settings) only; on Aeron, Agrona and
 * the LMAX Disruptor.
 */
package io.orderentry.cluster;
