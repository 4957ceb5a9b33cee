package io.orderentry.engine;

/**
 * Copies a short ASCII text (a clientOrderId, a request id) into a slot of a preallocated byte array: how the dedup
 * window, the order view and the output ring's slots keep ids without a String per order (issue 33).
 */
public final class AsciiCopy {

    private AsciiCopy() {
    }

    /**
     * @return the text's length, its characters copied to {@code target} from {@code offset}; or -1 when it is longer
     *     than {@code capacity} or not ASCII (then some bytes of the slot may have been written, and the caller keeps
     *     the text another way)
     */
    public static int copy(final String text, final byte[] target, final int offset, final int capacity) {
        final int n = text.length();
        if (n > capacity) {
            return -1;
        }
        for (int k = 0; k < n; k++) {
            final char c = text.charAt(k);
            if (c >= 0x80) {
                return -1;
            }
            target[offset + k] = (byte) c;
        }
        return n;
    }
}
