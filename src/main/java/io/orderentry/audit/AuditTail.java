package io.orderentry.audit;

import java.nio.file.Path;

/**
 * Where the trail on disk ends, as {@link AuditTailReader} found it at startup: what the writer continues from.
 *
 * @param lastSeq                    seq of the last record; 0 for an empty trail
 * @param lastHash                   hash of the last record; {@link AuditFormat#GENESIS_HASH} for an empty trail
 * @param lastAuditedJournalSequence the highest journal sequence the trail has a record of (commands and
 *                                   service starts); -1 for an empty trail, which has no such baseline
 * @param newestFile                 the file to append to, or null for an empty trail
 * @param newestFileBytes            its size
 */
public record AuditTail(long lastSeq, String lastHash, long lastAuditedJournalSequence, Path newestFile,
                        long newestFileBytes) {

    /** @return true when the trail holds no record yet */
    public boolean isEmpty() {
        return lastSeq == 0;
    }
}
