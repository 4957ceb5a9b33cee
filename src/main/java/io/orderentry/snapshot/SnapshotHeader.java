package io.orderentry.snapshot;

import io.orderentry.journal.JournalPosition;
import java.util.List;
import java.util.Map;

/**
 * What a snapshot says about itself, ahead of the state it holds.
 *
 * @param position      the journal position the state reflects: every record up to {@code position.sequence()}
 *                      and none after
 * @param eventSequence the engine's last event sequence at that point
 * @param persistedThrough the event sequence up to which PostgreSQL held every event when the snapshot was
 *                      written (-1: persistence disabled or not known); the database's mark only rises, so a start
 *                      that cannot reach the database takes this as what it holds at least
 * @param createdMillis when the snapshot was written, milliseconds since the epoch (informational)
 * @param instruments   the instruments' symbols in engine index order, as the state is laid out
 * @param configuration the settings that decide what the journal's records mean (the journal manifest's entries)
 */
public record SnapshotHeader(JournalPosition position, long eventSequence, long persistedThrough, long createdMillis,
                             List<String> instruments,
                             Map<String, String> configuration) {

    public SnapshotHeader {
        instruments = List.copyOf(instruments);
        configuration = Map.copyOf(configuration);
    }

    /**
     * @param instruments   today's instruments, in engine index order
     * @param differences   today's configuration's differences from a recorded one (empty when compatible)
     * @return why this snapshot cannot be restored under today's configuration, or null when it can: its instruments
     *         must be the first of today's, in the same order (new ones may follow), and its configuration must mean
     *         the same as today's
     */
    public String incompatibility(final List<String> instruments,
                                  final java.util.function.Function<Map<String, String>, List<String>> differences) {
        if (this.instruments.size() > instruments.size()
                || !instruments.subList(0, this.instruments.size()).equals(this.instruments)) {
            return "its instruments " + this.instruments + " are not the first of today's " + instruments
                    + " in the same order";
        }
        final List<String> changed = differences.apply(configuration);
        return changed.isEmpty() ? null : "it was written under another configuration: " + String.join("; ", changed);
    }
}
