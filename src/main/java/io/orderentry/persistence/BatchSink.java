package io.orderentry.persistence;

import java.sql.SQLException;

/**
 * Stores batches of events, each atomically with its high-water mark: PostgreSQL in production, a
 * recording fake in tests. Each sink is used by one thread at a time: the persistence writer's, or the
 * lane it belongs to.
 */
interface BatchSink {

    /**
     * (Re)connects and reads the stored high-water mark; gives up a connection held before.
     *
     * @throws SQLException when the store cannot be reached or used
     */
    void connect() throws SQLException;

    /** @return true while connected; the connection may still turn out to be broken on the next write */
    boolean connected();

    /** Gives up the connection, if any; never throws. */
    void disconnect();

    /** @return the sequence of the last event known to be stored (the high-water mark); -1 before connecting */
    long persistedSequence();

    /**
     * Reads the stored high-water mark again, which another writer may have moved (cluster mode: whichever member
     * leads writes). By default by reconnecting.
     *
     * @throws SQLException when the store cannot be reached or used
     */
    default void refresh() throws SQLException {
        connect();
    }

    /**
     * Stores every event of {@code batch} and moves the high-water mark to its last event, all or
     * nothing. The batch must start right after the batch before it, which may still be being written on
     * another connection: the sink claims the mark only in its {@code turn} (see {@link ClaimTurn}), and the
     * claim succeeds only once that batch has committed.
     *
     * @throws SQLException when the store failed, or the batch before did not commit; nothing was stored,
     *                      or the outcome is unknown until the sink reconnects and rereads its high-water mark
     * @throws IllegalStateException when the batch does not continue the stored sequence, or the stored
     *                      state contradicts it: a bug or a database that belongs to another journal
     */
    void write(EventBatch batch, ClaimTurn turn) throws SQLException;
}
