package io.orderentry.pipeline;

import io.orderentry.engine.AsciiCopy;
import java.nio.charset.StandardCharsets;

/**
 * A short text held inside a preallocated ring slot as bytes, so that filling the slot stores no reference to an
 * object born with the request: the slot is old, the request's {@code String} is young, and every such reference
 * costs the young collection a card to scan and the object a copy (issue 33: per-request strings in the output
 * ring's slots were half of each young pause's card scanning).
 *
 * <p>Text of at most {@code capacity} ASCII characters (every clientOrderId and request id the service issues or
 * accepts) is copied into the slot's own bytes; anything else (a refused request's invalid clientOrderId, say) is
 * kept as the {@code String} it came as, which is correct and only costs what the reference always cost.
 *
 * <p>Not thread safe: written by the ring's producer before it publishes the slot, read by consumers after.
 */
public final class InlineText {

    private static final int NULL = -1;
    private static final int OVERFLOW = -2;

    private final byte[] bytes;
    private int length = NULL;
    private String overflow;

    /** @param capacity the most ASCII characters kept inline */
    public InlineText(final int capacity) {
        this.bytes = new byte[capacity];
    }

    /** Holds {@code text}, or nothing when it is null. */
    public void set(final String text) {
        if (text == null) {
            clear();
            return;
        }
        final int n = AsciiCopy.copy(text, bytes, 0, bytes.length);
        if (n >= 0) {
            length = n;
            overflow = null;
        } else {
            keep(text);
        }
    }

    /** Holds what {@code other} holds. */
    public void set(final InlineText other) {
        if (other.length >= 0 && other.length <= bytes.length) {
            System.arraycopy(other.bytes, 0, bytes, 0, other.length);
            length = other.length;
            overflow = null;
        } else {
            set(other.toStringOrNull());
        }
    }

    /** Holds nothing (null). */
    public void clear() {
        length = NULL;
        overflow = null;
    }

    /** @return whether it holds no text (null, as opposed to empty) */
    public boolean isNull() {
        return length == NULL;
    }

    /** @return whether the text is inline: ASCII, at most the capacity; then {@link #length} and {@link #byteAt} read it */
    public boolean isInline() {
        return length >= 0;
    }

    /** @return the inline text's length; only when {@link #isInline} */
    public int length() {
        return length;
    }

    /** @return the inline text's byte at {@code index} (an ASCII character); only when {@link #isInline} */
    public byte byteAt(final int index) {
        return bytes[index];
    }

    /** Copies the inline text into {@code target} at {@code offset}; only when {@link #isInline} */
    public void copyTo(final byte[] target, final int offset) {
        System.arraycopy(bytes, 0, target, offset, length);
    }

    /** @return whether it holds exactly {@code text} (both null counts as equal) */
    public boolean contentEquals(final String text) {
        if (text == null || length == NULL) {
            return text == null && length == NULL;
        }
        if (length == OVERFLOW) {
            return overflow.equals(text);
        }
        if (text.length() != length) {
            return false;
        }
        for (int i = 0; i < length; i++) {
            if (text.charAt(i) != bytes[i]) {
                return false;
            }
        }
        return true;
    }

    /** @return the text as a new String (for consumers off the hot path), or null when it holds none */
    public String toStringOrNull() {
        if (length == NULL) {
            return null;
        }
        return length == OVERFLOW ? overflow : new String(bytes, 0, length, StandardCharsets.ISO_8859_1);
    }

    @Override
    public String toString() {
        return String.valueOf(toStringOrNull());
    }

    private void keep(final String text) {
        length = OVERFLOW;
        overflow = text;
    }
}
