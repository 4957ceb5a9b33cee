package io.orderentry.audit;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;

/**
 * Checks one record line on its own: JSON object, hash field at the end, hash equal to the SHA-256 of its
 * canonical bytes, and the chain fields present. Whether it links to its neighbour is the caller's business.
 * Not thread-safe: one instance per thread.
 */
final class RecordCheck {

    /** What a sound record says about its place in the chain. */
    record Checked(long seq, String time, String prevHash, String hash, String kind, long journalSequence) {

        /** @return true if the record names a journal sequence */
        boolean hasJournalSequence() {
            return journalSequence >= 0;
        }
    }

    /** A line that is not a sound record; the message says why. */
    static final class BrokenRecordException extends Exception {

        BrokenRecordException(final String reason) {
            super(reason, null, false, false);
        }
    }

    private final ObjectMapper mapper = new ObjectMapper().enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);
    private final MessageDigest sha = AuditFormat.sha256();
    private final byte[] digest = new byte[32];
    private final byte[] hex = new byte[AuditFormat.HASH_HEX_LENGTH];

    /**
     * @param line   the line without its {@code '\n'}
     * @param length its length
     * @throws BrokenRecordException if the line is not a sound record on its own
     */
    Checked check(final byte[] line, final int length) throws BrokenRecordException {
        if (!AuditFormat.hasHashField(line, length)) {
            throw new BrokenRecordException("the line does not end with a \"hash\" field of 64 hex digits"
                    + " (edited, or two lines run together)");
        }
        final int hashAt = AuditFormat.hashOffset(length);
        AuditFormat.hash(sha, line, length - AuditFormat.HASH_SUFFIX_LENGTH, digest, hex, 0);
        for (int i = 0; i < hex.length; i++) {
            if (hex[i] != line[hashAt + i]) {
                throw new BrokenRecordException("hash does not match the record's content (the record was edited)");
            }
        }
        final JsonNode node;
        try {
            node = mapper.readTree(line, 0, length);
        } catch (final JsonProcessingException e) {
            throw new BrokenRecordException("not valid JSON: " + e.getOriginalMessage());
        } catch (final IOException e) {
            throw new BrokenRecordException("unreadable: " + e.getMessage());
        }
        if (node == null || !node.isObject()) {
            throw new BrokenRecordException("not a JSON object");
        }
        final JsonNode seq = node.get("seq");
        final JsonNode prevHash = node.get("prevHash");
        final JsonNode kind = node.get("kind");
        if (seq == null || !seq.canConvertToLong() || seq.asLong() < 1) {
            throw new BrokenRecordException("\"seq\" is missing or not a positive integer");
        }
        if (prevHash == null || !prevHash.isTextual() || prevHash.asText().length() != AuditFormat.HASH_HEX_LENGTH) {
            throw new BrokenRecordException("\"prevHash\" is missing or not 64 hex digits");
        }
        if (kind == null || !kind.isTextual()) {
            throw new BrokenRecordException("\"kind\" is missing");
        }
        final JsonNode journal = node.get("journalSequence");
        final JsonNode time = node.get("time");
        return new Checked(seq.asLong(), time == null ? null : time.asText(), prevHash.asText(),
                new String(hex, StandardCharsets.US_ASCII), kind.asText(),
                journal == null || !journal.canConvertToLong() ? -1 : journal.asLong());
    }
}
