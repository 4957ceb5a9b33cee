package io.orderentry.app;

import io.orderentry.audit.AuditRetention;
import io.orderentry.instrument.Instrument;
import io.orderentry.instrument.TradingRules;
import io.orderentry.persistence.DatabaseConfig;
import io.orderentry.snapshot.SnapshotConfig;

import io.orderentry.audit.AuditConfig;
import io.orderentry.engine.EngineConfig;
import io.orderentry.journal.JournalSync;
import io.orderentry.marketdata.MarketDataConfig;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The whole configuration of one service instance, immutable and validated once by
 * {@link ConfigLoader}. Every component takes the part it needs from here; nothing reads the
 * environment on its own.
 *
 * @param httpInstances     HTTP verticle instances (event loops serving requests)
 * @param inputRingSize     slots of the input ring (power of two)
 * @param outputRingSize    slots of the output ring (power of two)
 * @param waitStrategy      how ring consumers wait: blocking, sleeping, yielding or busy-spin
 * @param retainedFinalOrders how many final (filled, cancelled, expired, rejected) orders the
 *                          query view keeps for GET; open orders are always kept
 * @param database          empty when persistence is disabled
 * @param audit             the audit trail's directory, file size and sync mode
 * @param marketData        market data views and the WebSocket stream
 * @param snapshots         when and where snapshots of the state are written
 * @param auditRetention    how long audit files stay in the trail's directory before they are archived
 * @param auth              API keys, rate limits and TLS
 * @param tradingRules      the default self-trade prevention and the instruments' price bands
 * @param cluster           cluster mode's settings; empty in single-node mode (the default)
 */
public record Config(String httpHost, int httpPort, int httpInstances, Path journalDir, JournalSync journalSync,
                     long journalSegmentBytes, int inputRingSize, int outputRingSize, String waitStrategy,
                     List<Instrument> instruments, EngineConfig engineLimits, int retainedFinalOrders,
                     Optional<DatabaseConfig> database, AuditConfig audit,
                     MarketDataConfig marketData, SnapshotConfig snapshots,
                     AuditRetention auditRetention, io.orderentry.http.HttpConfig httpLimits,
                     io.orderentry.auth.AuthConfig auth, TradingRules tradingRules,
                     Optional<io.orderentry.cluster.ClusterConfig> cluster) {


    public Config {
        instruments = List.copyOf(instruments);
    }

    /** @return instrument by symbol name, for the HTTP edge */
    public Map<String, Instrument> instrumentsBySymbol() {
        final Map<String, Instrument> bySymbol = new java.util.LinkedHashMap<>();
        for (final Instrument instrument : instruments) {
            bySymbol.put(instrument.symbol(), instrument);
        }
        return Map.copyOf(bySymbol);
    }
}
