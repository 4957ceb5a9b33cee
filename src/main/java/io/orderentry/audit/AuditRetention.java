package io.orderentry.audit;

import java.nio.file.Path;

/**
 * How long audit files stay in the trail's directory.
 *
 * @param days    files written more than this many UTC days ago are archived ({@link AuditArchiver}); 0 keeps all
 * @param archive where they go, compressed
 */
public record AuditRetention(int days, Path archive) {

    public AuditRetention {
        if (days < 0) {
            throw new IllegalArgumentException("days must be >= 0, was " + days);
        }
    }
}
