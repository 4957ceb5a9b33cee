package io.orderentry.audit;

/**
 * Follows the journal sequences of a trail's command records, in the order the records are chained, and says which
 * journaled commands lack a record and which are recorded more than once: {@link AuditVerifier}'s completeness check.
 * Not thread-safe.
 */
public final class CommandSequences {

    /** What the command records cover, and what they lack. */
    public record Completeness(long first, long last, long missing, long firstMissing, long lastMissingOfFirstGap,
                        long repeated, long firstRepeated) {

        /** @return true when every journaled command from the first recorded to the last is there exactly once */
        public boolean complete() {
            return missing == 0 && repeated == 0;
        }

        /** @return one phrase for a person: what the command records cover, or what they lack */
        public String describe() {
            if (first < 0) {
                return "no journaled command recorded";
            }
            final StringBuilder out = new StringBuilder("journaled commands ").append(first).append("..").append(last);
            if (missing > 0) {
                out.append(": ").append(missing).append(" without a record, the first ")
                        .append(firstMissing == lastMissingOfFirstGap ? Long.toString(firstMissing)
                                : firstMissing + ".." + lastMissingOfFirstGap);
            }
            if (repeated > 0) {
                out.append(missing > 0 ? "; " : ": ").append(repeated).append(" recorded again or out of order, the"
                        + " first ").append(firstRepeated);
            }
            return out.toString();
        }
    }

    private long first = -1;
    private long last = -1;
    private long missing;
    private long firstMissing = -1;
    private long lastMissingOfFirstGap = -1;
    private long repeated;
    private long firstRepeated = -1;

    /** Takes the next sound record of the chain. */
    void record(final RecordCheck.Checked record) {
        if (!isCommand(record)) {
            return;
        }
        final long sequence = record.journalSequence();
        if (first < 0) {
            first = sequence;
            last = sequence;
            return;
        }
        if (sequence > last + 1) {
            if (missing == 0) {
                firstMissing = last + 1;
                lastMissingOfFirstGap = sequence - 1;
            }
            missing += sequence - last - 1;
        } else if (sequence <= last) {
            if (repeated == 0) {
                firstRepeated = sequence;
            }
            repeated++;
            return;
        }
        last = sequence;
    }

    /** @return what the records so far cover and lack */
    Completeness completeness() {
        return new Completeness(first, last, missing, firstMissing, lastMissingOfFirstGap, repeated, firstRepeated);
    }

    /** A journaled command's record: not a start or an edge refusal, and with the sequence its journaling gave it. */
    static boolean isCommand(final RecordCheck.Checked record) {
        return record.hasJournalSequence() && !AuditKind.SERVICE_STARTED.name().equals(record.kind())
                && !AuditKind.REJECTED_AT_EDGE.name().equals(record.kind());
    }
}
