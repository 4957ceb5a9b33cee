package io.orderentry.journal;

import java.nio.ByteOrder;

/**
 * The on-disk format of the command journal, version {@value #VERSION}. All numbers are
 * little-endian ({@link #BYTE_ORDER}).
 *
 * <h2>Segments</h2>
 * The journal is a directory of append-only segment files named by the sequence of their first
 * record, zero-padded to 20 digits so that names sort in sequence order:
 * {@code 00000000000000000001.journal}. Each segment starts with a {@value #SEGMENT_HEADER_SIZE}-byte
 * header:
 * <pre>
 *   0  int   magic           0x4C4E524A (the ASCII bytes "JRNL")
 *   4  int   version         {@value #VERSION}
 *   8  long  firstSequence   equal to the number in the file name
 * </pre>
 * followed by records, back to back. A segment is rolled before a record could make it exceed the
 * configured segment size.
 *
 * <h2>Records</h2>
 * <pre>
 *   0  int   length           whole record in bytes, these 4 included; {@value #MIN_RECORD_SIZE}..{@value #MAX_RECORD_SIZE}
 *   4  int   crc32c           CRC32C of bytes [8, length)
 *   8  long  sequence         1, 2, 3, ... without gaps across segments
 *  16  long  timestampMicros  ingress time, microseconds since the epoch, never decreasing
 *  24  byte  commandType      1 = PLACE, 2 = CANCEL, 3 = AMEND, 4 = CANCEL_ALL, 5 = SET_PRICE_BAND (older builds),
 *                               6 = SET_PRICE_BAND with its rule, 7 = FUND, 8 = SET_FEES
 *  25  fields of the command type, then (version 2) the origin block:
 *      PLACE:      string accountId, nullable string clientOrderId, string symbol (the instrument NAME),
 *                  byte side (0 BUY, 1 SELL), byte orderType (0 LIMIT, 1 MARKET),
 *                  byte timeInForce (0 GTC, 1 IOC, 2 FOK),
 *                  byte flags (bit 0 postOnly; bits 1-2 selfTradePrevention: 0 NONE, 1 EXPIRE_TAKER,
 *                  2 EXPIRE_MAKER, 3 EXPIRE_BOTH; bit 3 placed through a stream connection with cancel on
 *                  disconnect), long price (ticks), long quantity (lots), with bit 3: long session (the connection)
 *      CANCEL:     long orderId
 *      AMEND:      long orderId, long price (ticks, 0 = unchanged), long quantity (new total in lots, 0 = unchanged)
 *      CANCEL_ALL: string accountId, nullable string symbol (null = every instrument),
 *                  byte cause (0 a client's cancel-all, 1 the account's dead man's switch, 2 a stream connection with
 *                  cancel on disconnect closed: then long session follows, and only that connection's orders go)
 *      SET_PRICE_BAND (5): string symbol, int basisPoints (0 = no band)
 *      SET_PRICE_BAND (6): string symbol, int basisPoints (0 = no band), byte marketBandRule (1 FAR_EDGE_ONLY,
 *                  2 BOTH_EDGES: how the band bounds MARKET orders, see MarketBandRule)
 *      FUND (7):   string accountId, byte asset (its index in the manifest's risk.asset entries), long amount (units
 *                  of the asset, negative for a withdrawal, never 0), string reference (its idempotency key)
 *      SET_FEES (8): string symbol, int makerFeeRate, int takerFeeRate (millionths, 0 to 100,000)
 *  origin: nullable string requestId, nullable string remoteAddress, nullable string keyId (the API key's id,
 *          never its secret): who asked, so that the audit trail can be rebuilt whole from the journal when it lost
 *          records (a power loss with ORDERS_AUDIT_SYNC=none). Each at most {@value #MAX_ORIGIN_BYTES} bytes of
 *          printable ASCII (a longer value is cut, another character written as '?'). Not part of the command:
 *          replay gives it to the audit stage only.
 * </pre>
 * Version 2 added the origin block. Segments written by version 1 hold records without it, and are read as before:
 * a record's fields either end at {@code length} (no origin) or are followed by exactly the origin block. A writer
 * never appends to a version 1 segment (it starts a new one), so a segment's records all have the block or none
 * do; a build reading only version 1 refuses a version 2 segment by its header. Cluster mode's log carries records
 * without the block: its messages carry the origin themselves.
 * Types 3 to 5 and the self-trade prevention bits came with issue 15 without a version change: a PLACE written
 * before them has flags 0 or 1, which read as they always did (self-trade prevention NONE). A build from before
 * them refuses a journal holding them as corrupted rather than misreading it.
 * The session bit and cause 2 came with issue 35 without a version change: a build from before them refuses a journal
 * holding them as corrupted (flags of 8 or more, an unknown cause) rather than misreading it.
 * Type 6 came with issue 31, also without a version change: this build writes only 6, reads a 5 as a band under the
 * rule of the builds that wrote it (FAR_EDGE_ONLY), so that their MARKET orders replay as they were matched, and a
 * build from before it refuses a journal holding a 6 as corrupted rather than replaying it under its older rule.
 * Types 7 and 8 came with issue 36 (balances) without a version change: a build from before them refuses a journal
 * holding them as corrupted; a journal with balances says so in its manifest anyway, which such a build does not check.
 * A string is an unsigned 16-bit byte count followed by that many UTF-8 bytes; a nullable string
 * uses the count {@value #NULL_STRING} for null. The fields must end exactly at {@code length}.
 * The symbol is stored by name, not by index, so that a reordered instrument list cannot silently
 * change which book a replayed order goes to.
 */
public final class JournalFormat {

    /** Byte order of every number in the journal. */
    public static final ByteOrder BYTE_ORDER = ByteOrder.LITTLE_ENDIAN;

    /** First four bytes of every segment: "JRNL" read as a little-endian int. */
    public static final int MAGIC = 0x4C4E524A;
    /** Format version written in every segment header. */
    public static final int VERSION = 2;
    /** The oldest format version this build reads. */
    public static final int OLDEST_READABLE_VERSION = 1;
    /** Bytes of the segment header. */
    public static final int SEGMENT_HEADER_SIZE = 16;
    /** Suffix of segment file names. */
    public static final String SEGMENT_SUFFIX = ".journal";

    /** Offset of the CRC-covered part of a record (right after length and crc). */
    static final int CRC_START = 8;
    static final int SEQUENCE_OFFSET = 8;
    static final int TIMESTAMP_OFFSET = 16;
    static final int TYPE_OFFSET = 24;
    /** Bytes before the command's own fields. */
    static final int RECORD_HEADER_SIZE = 25;

    /** Smallest valid record: a CANCEL. */
    public static final int MIN_RECORD_SIZE = RECORD_HEADER_SIZE + Long.BYTES;
    /** Largest valid record; ids of up to 64 characters always fit. */
    public static final int MAX_RECORD_SIZE = 512;
    /** Largest UTF-8 encoding of a symbol name. */
    public static final int MAX_SYMBOL_BYTES = 64;
    /**
     * Largest string of the origin block. With ids and symbols of at most 64 bytes the largest record (a PLACE, 251
     * bytes) and its origin block (198 bytes) stay within {@link #MAX_RECORD_SIZE}.
     */
    public static final int MAX_ORIGIN_BYTES = 64;

    static final int NULL_STRING = 0xFFFF;

    static final byte TYPE_PLACE = 1;
    static final byte TYPE_CANCEL = 2;
    static final byte TYPE_AMEND = 3;
    static final byte TYPE_CANCEL_ALL = 4;
    /** Written by the builds before issue 31; read as a band under {@link io.orderentry.engine.MarketBandRule#FAR_EDGE_ONLY}. */
    static final byte TYPE_SET_PRICE_BAND = 5;
    static final byte TYPE_SET_PRICE_BAND_WITH_RULE = 6;
    static final byte TYPE_FUND = 7;
    static final byte TYPE_SET_FEES = 8;
    /** The most assets a FUND record can name: its asset is one byte. */
    public static final int MAX_ASSETS = 127;

    private JournalFormat() {
    }
}
