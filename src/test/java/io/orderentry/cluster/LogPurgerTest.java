package io.orderentry.cluster;

import io.aeron.cluster.ConsensusModule;
import io.aeron.cluster.RecordingLog;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.File;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** What a member keeps and deletes, read from a real recording log written with Aeron's own code. */
class LogPurgerTest {

    private static final int MODULE = ConsensusModule.Configuration.SERVICE_ID;

    @TempDir
    File dir;

    /** A snapshot as Aeron records it: the consensus module's and the service's, at one log position. */
    private static void snapshot(final RecordingLog log, final long moduleRecording, final long position) {
        log.appendSnapshot(moduleRecording + 1, 0, 0, position, position, 0);
        log.appendSnapshot(moduleRecording, 0, 0, position, position, MODULE);
    }

    private List<RecordingLog.Entry> entries(final RecordingLog log) {
        try (RecordingLog reread = new RecordingLog(dir, false)) {
            return reread.entries();
        }
    }

    @Test
    void aMemberKeepsItsLogFromItsSecondNewestSnapshot() {
        try (RecordingLog log = new RecordingLog(dir, true)) {
            log.appendTerm(0, 0, 0, 0);
            assertEquals(LogRetention.UNKNOWN, LogPurger.keepFrom(entries(log)), "no snapshot: the whole log");
            snapshot(log, 10, 4_096);
            assertEquals(LogRetention.UNKNOWN, LogPurger.keepFrom(entries(log)),
                    "one snapshot: if it were unusable the member would replay the log from the start");
            snapshot(log, 20, 8_192);
            snapshot(log, 30, 12_288);
            assertEquals(8_192, LogPurger.keepFrom(entries(log)));
            assertEquals(List.of(11L, 10L), LogPurger.snapshotsBefore(entries(log), 8_192),
                    "the snapshots older than the second newest are deleted, both recordings of each");
        }
    }

    @Test
    void aSnapshotTheServiceWroteButTheModuleDidNotRecordDoesNotCount() {
        try (RecordingLog log = new RecordingLog(dir, true)) {
            log.appendTerm(0, 0, 0, 0);
            snapshot(log, 10, 4_096);
            snapshot(log, 20, 8_192);
            log.appendSnapshot(31, 0, 0, 12_288, 12_288, 0);   // the service's only: the module's never came
            assertEquals(4_096, LogPurger.keepFrom(entries(log)));
        }
    }

    @Test
    void anInvalidatedSnapshotDoesNotCount() {
        try (RecordingLog log = new RecordingLog(dir, true)) {
            log.appendTerm(0, 0, 0, 0);
            snapshot(log, 10, 4_096);
            snapshot(log, 20, 8_192);
            snapshot(log, 30, 12_288);
            log.invalidateLatestSnapshot();   // what ClusterTool's invalidate-latest-snapshot does
            assertEquals(4_096, LogPurger.keepFrom(entries(log)),
                    "the member now recovers from 8,192, or 4,096 if that one fails too");
        }
    }
}
