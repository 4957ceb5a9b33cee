package io.orderentry.snapshot;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;

/** The state a snapshot carries after its header, written and restored as one stream. */
public interface SnapshotState {

    /** Writes the state; called on the thread that owns it, while nothing changes it. */
    void write(DataOutput out) throws IOException;

    /**
     * Restores a state written by {@link #write} into new, empty objects.
     *
     * @throws IOException on malformed input
     */
    void restore(DataInput in) throws IOException;
}
