package io.orderentry.journal;

import java.nio.file.Path;

/**
 * A torn record at the end of the last segment that recovery cut off: the write of the batch holding it
 * was interrupted, so it was never acknowledged. The caller logs it as a warning.
 *
 * @param file     the last segment
 * @param offset   byte offset of the torn record; the file now ends here
 * @param bytesCut how many bytes were removed
 * @param reason   why the record was judged torn
 */
public record TruncatedTail(Path file, long offset, long bytesCut, String reason) {
}
