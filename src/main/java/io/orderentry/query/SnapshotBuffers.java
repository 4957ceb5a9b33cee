package io.orderentry.query;

/**
 * The byte arrays that one {@link OrderStateView} snapshot write or restore moves its frames and blocks through,
 * made once per write or restore so that no order costs an allocation. Owned by one thread at a time.
 */
final class SnapshotBuffers {
    final byte[] rows = new byte[SnapshotCodec.FRAME * SnapshotCodec.ROW_BYTES];
    final byte[] block = new byte[SnapshotCodec.BLOCK * SnapshotCodec.FILL_BYTES];
    /** the slots of the frame's orders, or of a block of open order ids */
    final int[] slots = new int[Math.max(SnapshotCodec.FRAME, SnapshotCodec.BLOCK)];
    final int[] stringLengths = new int[SnapshotCodec.FRAME];
    byte[] strings = new byte[SnapshotCodec.FRAME * 32];
    int stringBytes;
    int[] chain = new int[SnapshotCodec.BLOCK];

    void reserveStrings(final int more) {
        if (strings.length - stringBytes < more) {
            strings = java.util.Arrays.copyOf(strings, Math.max(strings.length * 2, stringBytes + more));
        }
    }
}
