/**
 * The service's assembly: the configuration (one immutable {@link Config} of the components' settings records, each
 * read and checked by its own {@code from}; {@link ConfigLoader} layers defaults, file and environment), the wiring
 * of both rings and the verticles ({@code Pipeline}), and the order of startup, recovery and shutdown
 * ({@link OrderEntryService}). {@link Main} is the entry point and dispatches the commands. No other package depends
 * on it ({@code ArchitectureTest}).
 * <p>Runs on the starting thread (main), and stops on the shutdown hook's thread. It owns a few threads of its own:
 * oe-keys (key reloads), oe-audit-archive, and in cluster mode oe-cluster-snapshots. {@code FailFastHandler} runs on
 * the stage thread that failed; in cluster mode {@code ClusterSnapshots} on the clustered service thread.
 * <p>Depends on every other package of ours; on Vert.x, the LMAX Disruptor, Aeron and Agrona.
 */
package io.orderentry.app;
