package io.orderentry.app;

import io.orderentry.audit.AuditConfig;
import io.orderentry.auth.AuthConfig;
import io.orderentry.cluster.ClusterConfig;
import io.orderentry.config.ConfigException;
import io.orderentry.config.ConfigReader;
import io.orderentry.config.SettingNames;
import io.orderentry.engine.EngineConfig;
import io.orderentry.http.HttpConfig;
import io.orderentry.instrument.Assets;
import io.orderentry.instrument.ConfiguredInstruments;
import io.orderentry.instrument.Instrument;
import io.orderentry.instrument.TradingRules;
import io.orderentry.journal.JournalConfig;
import io.orderentry.journal.JournalManifest;
import io.orderentry.marketdata.MarketDataConfig;
import io.orderentry.persistence.DatabaseConfig;
import io.orderentry.pipeline.PipelineConfig;
import io.orderentry.query.QueryConfig;
import io.orderentry.snapshot.SnapshotConfig;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;

/**
 * Builds the {@link Config} from three layers, each overriding the one before:
 * <ol>
 *   <li>the defaults in {@code order-entry.properties} inside the jar;</li>
 *   <li>the properties file named by {@code ORDERS_CONFIG_FILE}, if set;</li>
 *   <li>environment variables: key {@code input.ring.size} is read from {@code ORDERS_INPUT_RING_SIZE}.</li>
 * </ol>
 * Each component's record reads and checks its own settings ({@code XConfig.from}, once); here are only the layers,
 * the order the records are read in, and the rules that join two components. A bad value stops startup with a
 * message naming the setting's environment variable.
 */
public final class ConfigLoader {

    /** Environment variable naming an optional properties file. */
    public static final String CONFIG_FILE_ENV = "ORDERS_CONFIG_FILE";

    private ConfigLoader() {
    }

    /** Loads defaults, the optional file and the process environment. */
    public static Config load() {
        return load(System.getenv());
    }

    /** Loads defaults, the optional file and the given environment (tests pass their own). */
    public static Config load(final Map<String, String> environment) {
        final Properties properties = defaults();
        final String file = environment.get(CONFIG_FILE_ENV);
        if (file != null && !file.isBlank()) {
            readFile(Path.of(file), properties);
        }
        for (final String key : properties.stringPropertyNames()) {
            final String override = environment.get(SettingNames.envName(key));
            if (override != null) {
                properties.setProperty(key, override.trim());
            }
        }
        return build(new ConfigReader(properties));
    }

    /**
     * @return a warning for each {@code ORDERS_*} variable in {@code environment} that names no setting, with the
     *     closest setting; such a variable is ignored, so a misspelt one would otherwise leave its default in force
     */
    public static List<String> unknownVariables(final Map<String, String> environment) {
        final Set<String> settings = new HashSet<>();
        settings.add(CONFIG_FILE_ENV);
        for (final String key : defaults().stringPropertyNames()) {
            settings.add(SettingNames.envName(key));
        }
        return UnknownVariables.report(environment, settings);
    }

    /** @return every documented key with its default, for the README table and tests */
    public static Properties defaults() {
        final Properties properties = new Properties();
        try (InputStream in = ConfigLoader.class.getResourceAsStream("/order-entry.properties")) {
            if (in == null) {
                throw new ConfigException("order-entry.properties is missing from the classpath");
            }
            properties.load(new InputStreamReader(in, StandardCharsets.UTF_8));
        } catch (final IOException e) {
            throw new ConfigException("cannot read the built-in defaults: " + e.getMessage());
        }
        return properties;
    }

    private static void readFile(final Path file, final Properties properties) {
        final Properties fromFile = new Properties();
        try (Reader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            fromFile.load(reader);
        } catch (final IOException e) {
            throw new ConfigException(CONFIG_FILE_ENV + "=" + file + " cannot be read: " + e.getMessage());
        }
        for (final String key : fromFile.stringPropertyNames()) {
            if (!properties.containsKey(key)) {
                throw new ConfigException(file + ": unknown setting '" + key + "'; known settings are "
                        + new TreeSet<>(properties.stringPropertyNames()));
            }
            properties.setProperty(key, fromFile.getProperty(key).trim());
        }
    }

    private static Config build(final ConfigReader settings) {
        final List<Instrument> instruments = journalInstruments(settings);
        final Assets assets = Assets.from(settings, instruments);
        final EngineConfig engine = engine(settings).withRisk(assets.engineRules());
        final QueryConfig query = QueryConfig.from(settings, engine.dedupWindow());
        final Optional<ClusterConfig> cluster = ClusterConfig.from(settings);
        final HttpConfig http = HttpConfig.from(settings, cluster.map(ClusterConfig::answerTimeoutMillis).orElse(0L));
        final Config config = new Config(http, JournalConfig.from(settings), PipelineConfig.from(settings), engine,
                instruments, TradingRules.from(settings, instruments), assets, query, DatabaseConfig.from(settings),
                AuditConfig.from(settings), MarketDataConfig.from(settings), SnapshotConfig.from(settings),
                AuthConfig.from(settings), cluster);
        if (http.maxConnections() < config.marketData().maxConnections() + 100) {
            throw new ConfigException(SettingNames.envName("http.max.connections") + " (" + http.maxConnections()
                    + ") must be at least " + SettingNames.envName("ws.max.connections") + " ("
                    + config.marketData().maxConnections()
                    + ") + 100, so that stream subscribers can never take every connection from order entry");
        }
        return config;
    }

    /**
     * The engine's bounds ({@code engine.*}), read here rather than in an {@code EngineConfig.from}: the engine
     * depends on nothing of ours, not even on {@code config} (ArchitectureTest), so its record keeps only its
     * constructor's checks.
     */
    private static EngineConfig engine(final ConfigReader settings) {
        return new EngineConfig(
                settings.intValue("engine.max.resting.orders", 1, Integer.MAX_VALUE),
                settings.intValue("engine.max.open.orders.per.account", 1, Integer.MAX_VALUE),
                settings.intValue("engine.max.price.levels.per.side", 1, 10_000_000),
                settings.intValue("engine.dedup.window", 1_000, 100_000_000));
    }

    /**
     * The configured instruments, each with its prices counted in the unit its journal records (a journal keeps the
     * price unit it was started with; the tick may change to a multiple of it, see {@link JournalManifest}).
     */
    private static List<Instrument> journalInstruments(final ConfigReader settings) {
        final List<Instrument> configured = ConfiguredInstruments.from(settings);
        try {
            return JournalManifest.withRecordedPriceUnits(Path.of(settings.string("journal.dir")), configured);
        } catch (final IOException | NumberFormatException e) {
            throw new ConfigException("the journal's " + JournalManifest.FILE_NAME + " cannot be read: " + e.getMessage());
        }
    }
}
