package io.orderentry.app;

import io.orderentry.audit.AuditConfig;
import io.orderentry.audit.AuditRetention;
import io.orderentry.audit.AuditSync;
import io.orderentry.config.ConfigException;
import io.orderentry.config.SettingNames;
import io.orderentry.engine.EngineConfig;
import io.orderentry.instrument.Instrument;
import io.orderentry.instrument.TradingRules;
import io.orderentry.journal.JournalManifest;
import io.orderentry.journal.JournalRetention;
import io.orderentry.journal.JournalSync;
import io.orderentry.marketdata.MarketDataConfig;
import io.orderentry.persistence.DatabaseConfig;
import io.orderentry.snapshot.SnapshotConfig;
import java.io.IOException;
import java.io.InputStream;
import java.io.Reader;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;

/**
 * Builds the {@link Config} from three layers, each overriding the one before:
 * <ol>
 *   <li>the defaults in {@code order-entry.properties} inside the jar;</li>
 *   <li>the properties file named by {@code ORDERS_CONFIG_FILE}, if set;</li>
 *   <li>environment variables: key {@code input.ring.size} is read from {@code ORDERS_INPUT_RING_SIZE}.</li>
 * </ol>
 * Every value is validated here, once; a bad value stops startup with a message naming the setting.
 */
public final class ConfigLoader {

    /** Environment variable naming an optional properties file. */
    public static final String CONFIG_FILE_ENV = "ORDERS_CONFIG_FILE";

    private final Properties values;

    private ConfigLoader(final Properties values) {
        this.values = values;
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
            final String override = environment.get(envName(key));
            if (override != null) {
                properties.setProperty(key, override.trim());
            }
        }
        return new ConfigLoader(properties).build();
    }

    /**
     * @return a warning for each {@code ORDERS_*} variable in {@code environment} that names no setting, with the
     *     closest setting; such a variable is ignored, so a misspelt one would otherwise leave its default in force
     */
    public static List<String> unknownVariables(final Map<String, String> environment) {
        final Set<String> settings = new HashSet<>();
        settings.add(CONFIG_FILE_ENV);
        for (final String key : defaults().stringPropertyNames()) {
            settings.add(envName(key));
        }
        return UnknownVariables.report(environment, settings);
    }

    /** @return the environment variable that overrides a key, e.g. ORDERS_HTTP_PORT for http.port */
    public static String envName(final String key) {
        return SettingNames.envName(key);
    }

    /** @return every documented key with its default, for the README table and tests */
    public static Properties defaults() {
        final Properties properties = new Properties();
        try (InputStream in = ConfigLoader.class.getResourceAsStream("/order-entry.properties")) {
            if (in == null) {
                throw new ConfigException("order-entry.properties is missing from the classpath");
            }
            properties.load(new java.io.InputStreamReader(in, StandardCharsets.UTF_8));
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
                        + new java.util.TreeSet<>(properties.stringPropertyNames()));
            }
            properties.setProperty(key, fromFile.getProperty(key).trim());
        }
    }

    private Config build() {
        final int cores = Runtime.getRuntime().availableProcessors();
        final int httpInstances = intValue("http.instances", 0, 64);
        final EngineConfig limits = new EngineConfig(
                intValue("engine.max.resting.orders", 1, Integer.MAX_VALUE),
                intValue("engine.max.open.orders.per.account", 1, Integer.MAX_VALUE),
                intValue("engine.max.price.levels.per.side", 1, 10_000_000),
                intValue("engine.dedup.window", 1_000, 100_000_000));
        final int retained = intValue("query.retained.final.orders", 1_000, 100_000_000);
        if (retained < limits.dedupWindow()) {
            throw new ConfigException(envName("query.retained.final.orders") + " (" + retained
                    + ") must be at least " + envName("engine.dedup.window") + " (" + limits.dedupWindow()
                    + "), so that a retried order can always be answered with its state");
        }
        final List<Instrument> instruments = journalInstruments();
        final Optional<io.orderentry.cluster.ClusterConfig> cluster = cluster();
        final Config config = new Config(
                string("http.host"),
                intValue("http.port", 0, 65_535),
                httpInstances == 0 ? cores : httpInstances,
                Path.of(string("journal.dir")),
                syncMode(),
                longValue("journal.segment.bytes", 1L << 20, 1L << 40),
                powerOfTwo("input.ring.size"),
                powerOfTwo("output.ring.size"),
                waitStrategy(),
                instruments,
                limits,
                retained,
                database(),
                audit(),
                marketData(),
                snapshots(),
                auditRetention(),
                new io.orderentry.http.HttpConfig(intValue("http.idle.timeout.seconds", 0, 86_400),
                        intValue("http.header.timeout.seconds", 0, 3_600),
                        intValue("http.body.timeout.seconds", 0, 3_600),
                        intValue("http.max.connections", 1, 10_000_000),
                        intValue("http.max.connections.per.address", 1, 10_000_000),
                        intValue("ws.max.connections.per.address", 1, 1_000_000),
                        intValue("ws.anonymous.percent", 1, 100),
                        intValue("audit.refusals.per.second", 1, 1_000_000),
                        longValue("http.metrics.cache.millis", 0, 60_000),
                        cluster.map(io.orderentry.cluster.ClusterConfig::answerTimeoutMillis).orElse(0L)),
                auth(),
                tradingRules(instruments),
                cluster);
        if (config.httpLimits().maxConnections() < config.marketData().maxConnections() + 100) {
            throw new ConfigException(envName("http.max.connections") + " (" + config.httpLimits().maxConnections()
                    + ") must be at least " + envName("ws.max.connections") + " (" + config.marketData().maxConnections()
                    + ") + 100, so that stream subscribers can never take every connection from order entry");
        }
        return config;
    }

    /**
     * Cluster mode, when {@code cluster.members} is set: this member's id must be in the list, and its directory
     * defaults to {@code cluster} beside the journal's.
     */
    private Optional<io.orderentry.cluster.ClusterConfig> cluster() {
        final String members = string("cluster.members");
        if (members.isEmpty()) {
            return Optional.empty();
        }
        final String dir = string("cluster.dir");
        final Path journal = Path.of(string("journal.dir")).toAbsolutePath().normalize();
        final Path parent = journal.getParent() == null ? journal : journal.getParent();
        final io.orderentry.cluster.ClusterConfig settings = new io.orderentry.cluster.ClusterConfig(members,
                intValue("cluster.member.id", 0, 1_000), dir.isBlank() ? parent.resolve("cluster") : Path.of(dir),
                longValue("cluster.leader.timeout.millis", 200, 600_000),
                longValue("cluster.answer.timeout.millis", 100, 600_000), bool("cluster.purge.log"),
                clusterSegmentBytes(), bool("cluster.fsync"), null);
        try {
            final int count = settings.parsedMembers().length;
            settings.self();
            if (count != 1 && count != 3 && count != 5 && count != 7) {
                throw new IllegalArgumentException(count + " members: a cluster has 3, 5 or 7 (or 1, for trying it)");
            }
        } catch (final IllegalArgumentException e) {
            throw new ConfigException(envName("cluster.members") + ": " + e.getMessage());
        }
        return Optional.of(settings.withSecret(clusterSecret()));
    }

    /**
     * The secret the members share ({@code cluster.secret.file}): required in cluster mode, since without it anyone who
     * reaches a member's UDP ports could join as a client of the cluster or of its archive.
     */
    private io.orderentry.cluster.ClusterSecret clusterSecret() {
        final String file = string("cluster.secret.file");
        if (file.isBlank()) {
            throw new ConfigException(envName("cluster.secret.file") + " is required in cluster mode: a file, readable"
                    + " by its owner only, holding a secret of at least " + io.orderentry.cluster.ClusterSecret.MIN_BYTES
                    + " characters that every member shares (e.g. `openssl rand -base64 32`; docs/cluster.md,"
                    + " \"Who may talk to a member\")");
        }
        try {
            return io.orderentry.cluster.ClusterSecret.read(Path.of(file));
        } catch (final IllegalArgumentException e) {
            throw new ConfigException(envName("cluster.secret.file") + ": " + e.getMessage());
        }
    }

    /**
     * The default self-trade prevention and the price bands: {@code price.band.percent} for every instrument, then
     * {@code price.bands} ({@code SYMBOL:PERCENT}, comma separated) for those that differ.
     */
    private TradingRules tradingRules(final List<Instrument> instruments) {
        final String stpText = string("engine.stp.default").toUpperCase(Locale.ROOT);
        final io.orderentry.engine.SelfTradePrevention stp;
        try {
            stp = io.orderentry.engine.SelfTradePrevention.valueOf(stpText);
        } catch (final IllegalArgumentException e) {
            throw new ConfigException(envName("engine.stp.default") + " must be one of "
                    + java.util.Arrays.toString(io.orderentry.engine.SelfTradePrevention.values()) + ", was '"
                    + string("engine.stp.default") + "'");
        }
        final int[] bands = new int[instruments.size()];
        java.util.Arrays.fill(bands, bandBasisPoints("price.band.percent", string("price.band.percent")));
        final String overrides = string("price.bands");
        if (!overrides.isEmpty()) {
            final Set<String> seen = new HashSet<>();
            for (final String spec : overrides.split(",")) {
                final String[] parts = spec.trim().split(":");
                if (parts.length != 2) {
                    throw new ConfigException(envName("price.bands") + ": '" + spec.trim()
                            + "' must be SYMBOL:PERCENT, e.g. BTCUSD:5");
                }
                final Instrument instrument = instruments.stream().filter(i -> i.symbol().equals(parts[0]))
                        .findFirst().orElseThrow(() -> new ConfigException(envName("price.bands") + ": " + parts[0]
                                + " is not in " + envName("instruments")));
                if (!seen.add(parts[0])) {
                    throw new ConfigException(envName("price.bands") + ": " + parts[0] + " is listed twice");
                }
                bands[instrument.index()] = bandBasisPoints("price.bands", parts[1]);
            }
        }
        return new TradingRules(stp, bands);
    }

    private static int bandBasisPoints(final String key, final String percent) {
        try {
            return TradingRules.basisPoints(new BigDecimal(percent.trim()));
        } catch (final NumberFormatException | ArithmeticException e) {
            throw new ConfigException(envName(key) + ": '" + percent + "' is not a percentage");
        } catch (final IllegalArgumentException e) {
            throw new ConfigException(envName(key) + ": " + e.getMessage());
        }
    }

    private io.orderentry.auth.AuthConfig auth() {
        final String mode = string("auth").toLowerCase(Locale.ROOT);
        if (!mode.equals("keys") && !mode.equals("none")) {
            throw new ConfigException(envName("auth") + " must be 'keys' or 'none', was '" + string("auth") + "'");
        }
        final String ops = string("auth.ops").toLowerCase(Locale.ROOT);
        if (!ops.equals("open") && !ops.equals("admin")) {
            throw new ConfigException(envName("auth.ops") + " must be 'open' or 'admin', was '" + string("auth.ops")
                    + "'");
        }
        final String keys = string("auth.keys.file");
        final Path journal = Path.of(string("journal.dir")).toAbsolutePath().normalize();
        final Path parent = journal.getParent() == null ? journal : journal.getParent();
        final String cert = string("tls.cert");
        final String key = string("tls.key");
        if (cert.isEmpty() != key.isEmpty()) {
            throw new ConfigException(envName("tls.cert") + " and " + envName("tls.key")
                    + " must be set together (PEM certificate chain and its private key) or both left empty");
        }
        for (final String file : List.of(cert, key)) {
            if (!file.isEmpty() && !Files.isReadable(Path.of(file))) {
                throw new ConfigException("the TLS file " + file + " cannot be read");
            }
        }
        return new io.orderentry.auth.AuthConfig(mode.equals("keys"),
                keys.isEmpty() ? parent.resolve("keys") : Path.of(keys),
                ops.equals("admin"),
                limit("rate.limit.requests.per.second", "rate.limit.requests.burst"),
                limit("rate.limit.orders.per.second", "rate.limit.orders.burst"),
                limit("rate.limit.address.per.second", "rate.limit.address.burst"),
                cert.isEmpty() ? null : Path.of(cert), key.isEmpty() ? null : Path.of(key));
    }

    private io.orderentry.auth.RateLimits.Limit limit(final String rateKey, final String burstKey) {
        final int rate = intValue(rateKey, 0, 10_000_000);
        final int burst = intValue(burstKey, 1, 100_000_000);
        if (rate > 0 && burst < 1) {
            throw new ConfigException(envName(burstKey) + " must be at least 1");
        }
        return new io.orderentry.auth.RateLimits.Limit(rate, burst);
    }

    private AuditRetention auditRetention() {
        final Path audit = Path.of(string("audit.dir")).toAbsolutePath().normalize();
        final String archive = string("audit.archive.dir");
        return new AuditRetention(intValue("audit.retention.days", 0, 100_000), archive.isBlank()
                ? (audit.getParent() == null ? audit : audit.getParent()).resolve("audit-archive") : Path.of(archive));
    }

    private SnapshotConfig snapshots() {
        final String dir = string("snapshot.dir");
        final Path journal = Path.of(string("journal.dir")).toAbsolutePath().normalize();
        final Path parent = journal.getParent() == null ? journal : journal.getParent();
        final Path directory = dir.isBlank() ? parent.resolve("snapshots") : Path.of(dir);
        final String archive = string("journal.archive.dir");
        if (directory.toAbsolutePath().normalize().equals(journal)) {
            throw new ConfigException(envName("snapshot.dir") + " must not be the journal directory");
        }
        return new SnapshotConfig(directory,
                longValue("snapshot.every.commands", 0, Long.MAX_VALUE),
                longValue("snapshot.interval.seconds", 0, 31_536_000) * 1000,
                intValue("snapshot.keep", 1, 1000),
                bool("snapshot.on.shutdown"),
                bool("snapshot.enabled"),
                retention(),
                archive.isBlank() ? parent.resolve("journal-archive") : Path.of(archive),
                longValue("snapshot.write.mb.per.second", 0, 100_000) << 20);
    }

    private JournalRetention.Mode retention() {
        final String value = string("journal.retention").trim().toLowerCase(Locale.ROOT);
        return switch (value) {
            case "keep" -> JournalRetention.Mode.KEEP;
            case "delete" -> JournalRetention.Mode.DELETE;
            case "archive" -> JournalRetention.Mode.ARCHIVE;
            default -> throw new ConfigException(envName("journal.retention") + " must be 'keep', 'delete' or"
                    + " 'archive', was '" + value + "'");
        };
    }

    private boolean bool(final String key) {
        final String value = string(key).trim().toLowerCase(Locale.ROOT);
        return switch (value) {
            case "true" -> true;
            case "false" -> false;
            default -> throw new ConfigException(envName(key) + " must be 'true' or 'false', was '" + value + "'");
        };
    }

    private AuditConfig audit() {
        final String dir = string("audit.dir");
        if (dir.isEmpty()) {
            throw new ConfigException(envName("audit.dir")
                    + " must name a directory; the audit trail cannot be disabled");
        }
        final String sync = string("audit.sync").toLowerCase(Locale.ROOT);
        final AuditSync mode = switch (sync) {
            case "fsync" -> AuditSync.FSYNC;
            case "none" -> AuditSync.NONE;
            default -> throw new ConfigException(envName("audit.sync") + " must be 'fsync' or 'none', was '" + sync
                    + "'");
        };
        return new AuditConfig(Path.of(dir), longValue("audit.max.file.bytes", AuditConfig.MIN_FILE_BYTES, 1L << 40),
                mode);
    }

    private MarketDataConfig marketData() {
        final int subscriptions = intValue("ws.max.subscriptions", 1, 10_000);
        final int queued = intValue("ws.max.queued.messages", 2, 1_000_000);
        if (queued <= subscriptions) {
            throw new ConfigException(envName("ws.max.queued.messages") + " (" + queued + ") must be more than "
                    + envName("ws.max.subscriptions") + " (" + subscriptions
                    + "), so that one snapshot per subscription always fits in a connection's backlog");
        }
        return new MarketDataConfig(
                intValue("marketdata.trades.history", 1, 1_000_000),
                longValue("marketdata.snapshot.millis", 1, 60_000),
                intValue("ws.max.connections", 1, 1_000_000),
                subscriptions,
                queued,
                intValue("ws.write.queue.bytes", 1024, 64 << 20),
                longValue("ws.heartbeat.millis", 100, MarketDataConfig.MAX_HEARTBEAT_MILLIS),
                longValue("ws.slow.client.millis", 100, 600_000),
                longValue("ws.max.queued.bytes", 4096, 1L << 30),
                longValue("ws.total.queued.bytes", 4096, 1L << 40),
                longValue("marketdata.max.delivery.wait.millis", 1, 10_000),
                intValue("ws.fanout.cpu.percent", 1, 100),
                intValue("ws.send.buffer.bytes", 0, 64 << 20),
                bool("ws.deflate"),
                new MarketDataConfig.StreamInput(intValue("ws.max.requests.per.second", 1, 100_000),
                        intValue("ws.max.requests.burst", 1, 1_000_000),
                        intValue("ws.max.message.bytes", MarketDataConfig.StreamInput.MIN_MESSAGE_BYTES, 1 << 20)));
    }

    private Optional<DatabaseConfig> database() {
        final String url = string("db.url");
        if (url.isEmpty()) {
            return Optional.empty();
        }
        if (!url.startsWith("jdbc:postgresql:")) {
            throw new ConfigException(envName("db.url") + " must be a jdbc:postgresql: URL or empty to disable"
                    + " persistence, was '" + url + "'");
        }
        return Optional.of(new DatabaseConfig(url, string("db.user"), values.getProperty("db.password", ""),
                intValue("persistence.batch.size", 1, 100_000), longValue("persistence.batch.millis", 1, 60_000),
                Path.of(string("persistence.spool.dir")),
                longValue("persistence.spool.segment.bytes", 1L << 20, 1L << 40),
                intValue("db.connect.timeout.seconds", 1, 300),
                longValue("persistence.retry.max.millis", 10, 600_000),
                intValue("persistence.writers", 1, 8),
                intValue("db.statement.timeout.seconds", 1, 50),
                longValue("persistence.spool.max.bytes", 1L << 20, Long.MAX_VALUE),
                longValue("persistence.spool.min.free.bytes", 0, Long.MAX_VALUE)));
    }

    private JournalSync syncMode() {
        final String value = string("journal.sync").toLowerCase(Locale.ROOT);
        return switch (value) {
            case "fsync" -> JournalSync.FSYNC;
            case "none" -> JournalSync.NONE;
            default -> throw new ConfigException(envName("journal.sync") + " must be 'fsync' or 'none', was '"
                    + value + "'");
        };
    }

    private String waitStrategy() {
        final String value = string("ring.wait.strategy").toLowerCase(Locale.ROOT);
        if (!Set.of("blocking", "sleeping", "yielding", "busy-spin").contains(value)) {
            throw new ConfigException(envName("ring.wait.strategy")
                    + " must be one of blocking, sleeping, yielding, busy-spin; was '" + value + "'");
        }
        return value;
    }

    /**
     * The configured instruments, each with its prices counted in the unit its journal records (a journal keeps the
     * price unit it was started with; the tick may change to a multiple of it, see {@link JournalManifest}).
     */
    private List<Instrument> journalInstruments() {
        final List<Instrument> configured = priceUnits(instruments());
        try {
            return JournalManifest.withRecordedPriceUnits(Path.of(string("journal.dir")), configured);
        } catch (final IOException | NumberFormatException e) {
            throw new ConfigException("the journal's " + JournalManifest.FILE_NAME + " cannot be read: " + e.getMessage());
        }
    }

    /** Applies {@code ORDERS_PRICE_UNITS} ({@code SYMBOL:UNIT}, comma separated; empty: each unit is the tick). */
    private List<Instrument> priceUnits(final List<Instrument> instruments) {
        final String key = "price.units";
        final String text = string(key);
        if (text.isBlank()) {
            return instruments;
        }
        final Map<String, BigDecimal> units = new java.util.HashMap<>();
        for (final String spec : text.split(",")) {
            final String[] parts = spec.trim().split(":");
            if (parts.length != 2) {
                throw new ConfigException(envName(key) + ": '" + spec.trim() + "' must be SYMBOL:UNIT, e.g. BTCUSD:0.001");
            }
            try {
                final BigDecimal unit = new BigDecimal(parts[1]);
                if (unit.signum() <= 0) {
                    throw new ConfigException(envName(key) + ": " + parts[0] + "'s unit must be > 0");
                }
                units.put(parts[0], unit);
            } catch (final NumberFormatException e) {
                throw new ConfigException(envName(key) + ": '" + spec.trim() + "' has a bad number: " + e.getMessage());
            }
        }
        final List<Instrument> resolved = new ArrayList<>();
        for (final Instrument instrument : instruments) {
            final BigDecimal unit = units.remove(instrument.symbol());
            if (unit == null) {
                resolved.add(instrument);
            } else if (instrument.tickSize().remainder(unit).signum() != 0) {
                throw new ConfigException(envName(key) + ": " + instrument.symbol() + "'s tick size "
                        + instrument.tickSize().toPlainString() + " is not a whole multiple of its price unit "
                        + unit.toPlainString());
            } else {
                resolved.add(instrument.withPriceUnit(unit));
            }
        }
        if (!units.isEmpty()) {
            throw new ConfigException(envName(key) + ": " + units.keySet() + " not in " + envName("instruments"));
        }
        return resolved;
    }

    /** Parses {@code SYMBOL:TICK:LOT[:MAX_QUANTITY[:MAX_PRICE]]}, comma separated, decimals as text. */
    private List<Instrument> instruments() {
        final String key = "instruments";
        final List<Instrument> instruments = new ArrayList<>();
        final Set<String> seen = new HashSet<>();
        for (final String spec : string(key).split(",")) {
            final String[] parts = spec.trim().split(":");
            if (parts.length < 3 || parts.length > 5) {
                throw new ConfigException(envName(key) + ": '" + spec.trim()
                        + "' must be SYMBOL:TICK:LOT[:MAX_QUANTITY[:MAX_PRICE]], e.g. BTCUSD:0.01:0.0001");
            }
            try {
                final BigDecimal tick = new BigDecimal(parts[1]);
                final BigDecimal lot = new BigDecimal(parts[2]);
                final long maxQuantity = parts.length > 3 ? units(new BigDecimal(parts[3]), lot) : 1_000_000_000L;
                final long maxPrice = parts.length > 4 ? units(new BigDecimal(parts[4]), tick) : 1_000_000_000L;
                if (!seen.add(parts[0])) {
                    throw new ConfigException(envName(key) + ": symbol " + parts[0] + " is listed twice");
                }
                instruments.add(new Instrument(instruments.size(), parts[0], tick, lot, maxPrice, maxQuantity));
            } catch (final NumberFormatException | ArithmeticException e) {
                throw new ConfigException(envName(key) + ": '" + spec.trim() + "' has a bad number: " + e.getMessage());
            } catch (final IllegalArgumentException e) {
                throw new ConfigException(envName(key) + ": " + e.getMessage());
            }
        }
        return instruments;
    }

    private static long units(final BigDecimal amount, final BigDecimal unit) {
        return amount.divide(unit).setScale(0, java.math.RoundingMode.UNNECESSARY).longValueExact();
    }

    private String string(final String key) {
        final String value = values.getProperty(key);
        if (value == null) {
            throw new ConfigException("setting " + key + " (" + envName(key) + ") is missing");
        }
        return value.trim();
    }

    private long longValue(final String key, final long min, final long max) {
        final String text = string(key);
        final long value;
        try {
            value = Long.parseLong(text);
        } catch (final NumberFormatException e) {
            throw new ConfigException(envName(key) + " must be a whole number, was '" + text + "'");
        }
        if (value < min || value > max) {
            throw new ConfigException(envName(key) + " must be between " + min + " and " + max + ", was " + value);
        }
        return value;
    }

    private int intValue(final String key, final int min, final int max) {
        return (int) longValue(key, min, max);
    }

    /** Aeron's archive segment: a power of two from its smallest log term (64 KiB) to 1 GiB. */
    private int clusterSegmentBytes() {
        final int value = intValue("cluster.segment.bytes", 64 << 10, 1 << 30);
        if (Integer.bitCount(value) != 1) {
            throw new ConfigException(envName("cluster.segment.bytes") + " must be a power of two, was " + value);
        }
        return value;
    }

    private int powerOfTwo(final String key) {
        final int value = intValue(key, 16, 1 << 26);
        if (Integer.bitCount(value) != 1) {
            throw new ConfigException(envName(key) + " must be a power of two, was " + value);
        }
        return value;
    }
}
