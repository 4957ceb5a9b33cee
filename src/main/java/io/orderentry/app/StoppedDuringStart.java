package io.orderentry.app;

/**
 * Thrown out of {@link OrderEntryService#start} when {@link OrderEntryService#stop} is called while the journal is
 * being replayed (or the member is joining its cluster): the replay stops at its next record and the stop then drains
 * and closes what recovery opened. Nothing is lost: the journal is only read during the replay, and the next start
 * replays it again.
 */
public final class StoppedDuringStart extends RuntimeException {
    private static final long serialVersionUID = 1L;

    StoppedDuringStart() {
        super("stopped during recovery");
    }
}
