package io.orderentry.app;

import io.orderentry.audit.AuditConfig;
import io.orderentry.auth.AuthConfig;
import io.orderentry.cluster.ClusterConfig;
import io.orderentry.engine.EngineConfig;
import io.orderentry.http.HttpConfig;
import io.orderentry.instrument.Assets;
import io.orderentry.instrument.Instrument;
import io.orderentry.instrument.TradingRules;
import io.orderentry.journal.JournalConfig;
import io.orderentry.marketdata.MarketDataConfig;
import io.orderentry.persistence.DatabaseConfig;
import io.orderentry.pipeline.PipelineConfig;
import io.orderentry.query.QueryConfig;
import io.orderentry.snapshot.SnapshotConfig;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The whole configuration of one service instance: one record per component, each read and checked by its own
 * {@code from} (built by {@link ConfigLoader}). Immutable. Every component takes the part it needs from here; nothing
 * reads the environment on its own.
 *
 * @param http         where the HTTP server listens and what one client may hold of it
 * @param journal      where and how the journal writes
 * @param pipeline     the rings' sizes and wait strategy
 * @param engine       the bounds that keep the engine's memory finite
 * @param instruments  the instruments, in index order, with the price units their journal records
 * @param tradingRules the default self-trade prevention and the instruments' price bands
 * @param assets       the instruments' assets, and with {@code ORDERS_RISK=balances} the balances' rules and fees
 * @param query        what the query view keeps
 * @param database     empty when persistence is disabled
 * @param audit        the audit trail's directory, file size, sync mode and retention
 * @param marketData   market data views and the WebSocket stream
 * @param snapshots    when and where snapshots of the state are written, and the journal's retention
 * @param auth         API keys, rate limits and TLS
 * @param cluster      cluster mode's settings; empty in single-node mode (the default)
 */
public record Config(HttpConfig http, JournalConfig journal, PipelineConfig pipeline, EngineConfig engine,
                     List<Instrument> instruments, TradingRules tradingRules, Assets assets, QueryConfig query,
                     Optional<DatabaseConfig> database, AuditConfig audit, MarketDataConfig marketData,
                     SnapshotConfig snapshots, AuthConfig auth, Optional<ClusterConfig> cluster) {

    public Config {
        instruments = List.copyOf(instruments);
    }

    /** @return the instruments' symbols, in index order */
    public List<String> symbols() {
        return instruments.stream().map(Instrument::symbol).toList();
    }

    /** @return instrument by symbol name, for the HTTP edge */
    public Map<String, Instrument> instrumentsBySymbol() {
        final Map<String, Instrument> bySymbol = new LinkedHashMap<>();
        for (final Instrument instrument : instruments) {
            bySymbol.put(instrument.symbol(), instrument);
        }
        return Map.copyOf(bySymbol);
    }
}
