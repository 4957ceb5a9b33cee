package io.orderentry.journal;

import io.orderentry.pipeline.OrderCommand;

/** Receives the commands replayed from the journal, in sequence order, on the recovering thread. */
@FunctionalInterface
public interface RecordConsumer {

    /**
     * Called once per journal record, in sequence order.
     *
     * @param command the decoded record; the same instance is reused for the next record, so copy what
     *                must outlive the call. {@code requestId} is 0 and {@code replyTo} is -1.
     */
    void onRecord(OrderCommand command);
}
