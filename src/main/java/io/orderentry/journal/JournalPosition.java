package io.orderentry.journal;

/**
 * A point in the journal between two records: where a snapshot's state ends and the replay after it starts.
 *
 * @param segmentFirstSequence the segment holding the next record (its file is named for this sequence)
 * @param offset               byte offset of the next record in that segment
 * @param sequence             sequence of the last record before the point; 0 at the very start
 * @param timestampMicros      that record's timestamp; 0 at the very start
 */
public record JournalPosition(long segmentFirstSequence, long offset, long sequence, long timestampMicros) {

    /** The start of an empty journal. */
    public static final JournalPosition START = new JournalPosition(1, JournalFormat.SEGMENT_HEADER_SIZE, 0, 0);

    public JournalPosition {
        if (segmentFirstSequence < 1 || offset < JournalFormat.SEGMENT_HEADER_SIZE || sequence < 0
                || sequence < segmentFirstSequence - 1 || timestampMicros < 0) {
            throw new IllegalArgumentException("not a journal position: segment " + segmentFirstSequence + ", offset "
                    + offset + ", sequence " + sequence);
        }
    }
}
