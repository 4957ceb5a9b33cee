package io.orderentry.audit;

import java.nio.file.Path;

/**
 * The result of {@link AuditVerifier#verify}: the chain is intact, or where it first breaks.
 *
 * @param files      files read
 * @param records    sound, correctly chained records before the break (all of them when intact)
 * @param lastHash   hash of the last sound record, or null if there is none
 * @param firstTime  time of the first record, or null
 * @param lastTime   time of the last sound record, or null
 * @param brokenFile the file holding the first broken record; null when intact
 * @param brokenLine its line number from 1 (0 when the break is not a line, e.g. no files at all)
 * @param reason     why it is broken; null when intact
 * @param anchoredAt the archived seq the chain was checked from (its files were archived and not given), 0 from the
 *                   first record
 * @param commands   which journaled commands the sound records cover, and which they lack
 */
public record AuditVerification(int files, long records, String lastHash, String firstTime, String lastTime,
                                Path brokenFile, long brokenLine, String reason, long anchoredAt,
                                CommandSequences.Completeness commands) {

    /** @return true if every record is sound and chained to the one before it */
    public boolean intact() {
        return reason == null;
    }

    /**
     * @return true if every journaled command from the first one recorded to the last is recorded exactly once (the
     *         chain may still be broken after them: see {@link #intact})
     */
    public boolean complete() {
        return commands.complete();
    }

    /** @return the first journal sequence a command record names, or -1 when none does */
    public long firstCommand() {
        return commands.first();
    }

    /** @return the last journal sequence a command record names, or -1 when none does */
    public long lastCommand() {
        return commands.last();
    }

    /**
     * @return one line for a person: "OK: ..." (chained and complete), "INCOMPLETE: ..." (chained, but journaled
     *         commands lack a record or have two) or "BROKEN: file line N: reason"
     */
    public String summary() {
        if (intact() && !complete()) {
            return "INCOMPLETE: the chain of " + records + " records is intact, but of the " + commands.describe()
                    + "; head hash " + lastHash;
        }
        return chain() + (intact() ? "; " + commands.describe() + (commands.first() >= 0 ? ", each once" : "") : "");
    }

    private String chain() {
        if (intact() && anchoredAt > 0) {
            return "OK: " + (records - anchoredAt) + " records in " + files + " file(s), seq " + (anchoredAt + 1) + ".."
                    + records + ", from " + firstTime + " to " + lastTime + "; head hash " + lastHash + "; chained to the"
                    + " anchor at archived seq " + anchoredAt + " (pass the archive directory to check seq 1.."
                    + anchoredAt + " too)";
        }
        if (intact()) {
            return "OK: " + records + " records in " + files + " file(s), seq 1.." + records + ", from " + firstTime
                    + " to " + lastTime + "; head hash " + lastHash;
        }
        return "BROKEN: " + (brokenFile == null ? "" : brokenFile + " line " + brokenLine + ": ") + reason
                + (records == 0 ? "" : " (the " + records + " record(s) before it, seq 1.." + records
                + ", are intact)");
    }
}
