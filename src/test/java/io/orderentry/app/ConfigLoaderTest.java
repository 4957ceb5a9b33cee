package io.orderentry.app;

import io.orderentry.config.ConfigException;
import io.orderentry.config.SettingNames;
import io.orderentry.instrument.Instrument;
import io.orderentry.instrument.TradingRules;
import io.orderentry.persistence.DatabaseConfig;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.orderentry.audit.AuditConfig;
import io.orderentry.audit.AuditSync;
import io.orderentry.auth.AuthConfig;
import io.orderentry.journal.JournalSync;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ConfigLoaderTest {

    @Test
    void defaultsRunOnALocalMachineWithBtcAndEth() {
        final Config config = ConfigLoader.load(Map.of());
        assertEquals(8080, config.http().port());
        assertEquals(Path.of("./data/journal"), config.journal().directory());
        assertEquals(JournalSync.FSYNC, config.journal().sync());
        assertEquals("BTCUSD", config.instruments().get(0).symbol());
        assertEquals(new BigDecimal("0.0001"), config.instruments().get(0).lotSize());
        assertEquals(new BigDecimal("0.001"), config.instruments().get(1).lotSize());
        assertEquals("jdbc:postgresql://localhost:5432/orderentry", config.database().orElseThrow().url());
        assertEquals(1000, config.database().orElseThrow().batchSize());
    }

    @TempDir
    static Path secrets;

    /** A secret file as an operator makes it: 44 characters, mode 0600. */
    private static String secretFile() {
        try {
            final Path file = secrets.resolve("cluster-secret");
            if (!Files.exists(file)) {
                Files.writeString(file, "c2VjcmV0IHNoYXJlZCBieSB0aGUgbWVtYmVycyBvZiB0aGU=\n");
                Files.setPosixFilePermissions(file, java.nio.file.attribute.PosixFilePermissions.fromString("rw-------"));
            }
            return file.toString();
        } catch (final java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** {@code pairs} and the secret file: cluster mode's settings. */
    private static Map<String, String> cluster(final String... pairs) {
        final Map<String, String> env = new java.util.HashMap<>();
        for (int i = 0; i < pairs.length; i += 2) {
            env.put(pairs[i], pairs[i + 1]);
        }
        env.put("ORDERS_CLUSTER_SECRET_FILE", secretFile());
        return env;
    }

    private static final String THREE_MEMBERS = "0,h0:1,h0:2,h0:3,h0:4,h0:5|1,h1:1,h1:2,h1:3,h1:4,h1:5"
            + "|2,h2:1,h2:2,h2:3,h2:4,h2:5";

    @Test
    void clusterModeIsOffByDefaultAndOnWithAMemberListThatNamesThisMember() {
        assertTrue(ConfigLoader.load(Map.of()).cluster().isEmpty());
        assertEquals(0, ConfigLoader.load(Map.of()).http().answerTimeoutMillis(), "one node waits for its engine");
        final Config config = ConfigLoader.load(cluster("ORDERS_CLUSTER_MEMBERS", THREE_MEMBERS,
                "ORDERS_CLUSTER_MEMBER_ID", "2", "ORDERS_DB_URL", "", "ORDERS_JOURNAL_DIR", "/var/oe/journal"));
        final io.orderentry.cluster.ClusterConfig cluster = config.cluster().orElseThrow();
        assertEquals(2, cluster.memberId());
        assertEquals("h2:5", cluster.self().archiveEndpoint());
        assertEquals(Path.of("/var/oe/cluster"), cluster.directory());
        assertEquals(1000, cluster.leaderTimeoutMillis(), "a failover in about 1.5 s (issue 34)");
        assertEquals(100, cluster.heartbeatIntervalMillis(), "ten heartbeats missed before an election");
        assertEquals(250, cluster.electionTimeoutMillis());
        final io.orderentry.cluster.ClusterConfig patient = ConfigLoader.load(cluster("ORDERS_CLUSTER_MEMBERS",
                THREE_MEMBERS, "ORDERS_CLUSTER_MEMBER_ID", "2", "ORDERS_DB_URL", "",
                "ORDERS_CLUSTER_LEADER_TIMEOUT_MILLIS", "8000")).cluster().orElseThrow();
        assertEquals(800, patient.heartbeatIntervalMillis(), "both follow the one setting");
        assertEquals(2000, patient.electionTimeoutMillis());
        final io.orderentry.cluster.ClusterConfig hasty = ConfigLoader.load(cluster("ORDERS_CLUSTER_MEMBERS",
                THREE_MEMBERS, "ORDERS_CLUSTER_MEMBER_ID", "2", "ORDERS_DB_URL", "",
                "ORDERS_CLUSTER_LEADER_TIMEOUT_MILLIS", "200")).cluster().orElseThrow();
        assertEquals(20, hasty.heartbeatIntervalMillis());
        assertEquals(50, hasty.electionTimeoutMillis(), "never below 50 ms");
        // with PostgreSQL too: the members share one database, written by the leader
        final Config withDatabase = ConfigLoader.load(cluster("ORDERS_CLUSTER_MEMBERS", THREE_MEMBERS,
                "ORDERS_CLUSTER_MEMBER_ID", "0", "ORDERS_DB_URL", "jdbc:postgresql://db:5432/orders"));
        assertTrue(withDatabase.cluster().isPresent() && withDatabase.database().isPresent());
        assertEquals(10_000, config.http().answerTimeoutMillis());
    }

    @Test
    void theClusterLogIsPurgedBy128MiBSegmentsWithAeronsTermLengthAndNoFsyncUnlessSetOtherwise() {
        final io.orderentry.cluster.ClusterConfig defaults = ConfigLoader.load(cluster("ORDERS_CLUSTER_MEMBERS",
                THREE_MEMBERS, "ORDERS_DB_URL", "")).cluster().orElseThrow();
        assertTrue(defaults.purgeLog());
        assertEquals(128 << 20, defaults.segmentBytes());
        assertEquals(64 << 20, defaults.logTermLength(), "Aeron's default term length: an existing log extends");
        assertFalse(defaults.fsync(), "a command is durable on a majority of members, as before the setting existed");
        final io.orderentry.cluster.ClusterConfig small = ConfigLoader.load(cluster("ORDERS_CLUSTER_MEMBERS",
                THREE_MEMBERS, "ORDERS_DB_URL", "", "ORDERS_CLUSTER_SEGMENT_BYTES", "65536",
                "ORDERS_CLUSTER_PURGE_LOG", "false", "ORDERS_CLUSTER_FSYNC", "true")).cluster().orElseThrow();
        assertFalse(small.purgeLog());
        assertTrue(small.fsync());
        assertEquals(65536, small.logTermLength(), "a term is never longer than the segment it is purged in");
        for (final String bad : java.util.List.of("100000", "32768", "2147483647", "x")) {
            final ConfigException e = assertThrows(ConfigException.class, () -> ConfigLoader.load(cluster(
                    "ORDERS_CLUSTER_MEMBERS", THREE_MEMBERS, "ORDERS_DB_URL", "", "ORDERS_CLUSTER_SEGMENT_BYTES", bad)),
                    bad);
            assertTrue(e.getMessage().contains("ORDERS_CLUSTER_SEGMENT_BYTES"), e.getMessage());
        }
    }

    @Test
    void clusterModeRefusesToStartWithoutASecretFileOrWithOneOpenToOthersOrTooShort() throws Exception {
        final Map<String, String> none = Map.of("ORDERS_CLUSTER_MEMBERS", THREE_MEMBERS, "ORDERS_DB_URL", "");
        final ConfigException missing = assertThrows(ConfigException.class, () -> ConfigLoader.load(none));
        assertTrue(missing.getMessage().contains("ORDERS_CLUSTER_SECRET_FILE is required in cluster mode"),
                missing.getMessage());
        final Path open = secrets.resolve("open");
        Files.writeString(open, "a secret long enough for the members, but readable by all");
        Files.setPosixFilePermissions(open, java.nio.file.attribute.PosixFilePermissions.fromString("rw-r--r--"));
        final Path shortOne = secrets.resolve("short");
        Files.writeString(shortOne, "  too short\n");
        Files.setPosixFilePermissions(shortOne, java.nio.file.attribute.PosixFilePermissions.fromString("rw-------"));
        for (final Path bad : java.util.List.of(open, shortOne, secrets.resolve("absent"))) {
            final ConfigException e = assertThrows(ConfigException.class, () -> ConfigLoader.load(Map.of(
                    "ORDERS_CLUSTER_MEMBERS", THREE_MEMBERS, "ORDERS_DB_URL", "",
                    "ORDERS_CLUSTER_SECRET_FILE", bad.toString())), bad.toString());
            assertTrue(e.getMessage().startsWith("ORDERS_CLUSTER_SECRET_FILE: "), e.getMessage());
        }
        assertTrue(ConfigLoader.load(Map.of()).cluster().isEmpty(), "one node needs no secret");
    }

    @Test
    void aClusterMemberListThatIsMalformedOmitsThisMemberOrHasTwoMembersIsRefused() {
        for (final Map<String, String> bad : java.util.List.of(
                Map.of("ORDERS_CLUSTER_MEMBERS", "0,h0:1,h0:2", "ORDERS_DB_URL", ""),
                Map.of("ORDERS_CLUSTER_MEMBERS", THREE_MEMBERS, "ORDERS_CLUSTER_MEMBER_ID", "3", "ORDERS_DB_URL", ""),
                Map.of("ORDERS_CLUSTER_MEMBERS", "0,h0:1,h0:2,h0:3,h0:4,h0:5|1,h1:1,h1:2,h1:3,h1:4,h1:5",
                        "ORDERS_DB_URL", ""))) {
            final ConfigException e = assertThrows(ConfigException.class, () -> ConfigLoader.load(bad), bad.toString());
            assertTrue(e.getMessage().contains("ORDERS_CLUSTER_MEMBERS"), e.getMessage());
        }
    }

    @Test
    void priceBandsAreTenPercentByDefaultAndOverriddenPerInstrumentAndTheStpDefaultIsNone() {
        final TradingRules defaults = ConfigLoader.load(Map.of()).tradingRules();
        assertEquals(io.orderentry.engine.SelfTradePrevention.NONE, defaults.selfTradePreventionDefault());
        assertEquals(java.util.List.of(1_000, 1_000), java.util.Arrays.stream(defaults.priceBandBasisPoints()).boxed()
                .toList());
        final TradingRules custom = ConfigLoader.load(Map.of("ORDERS_PRICE_BAND_PERCENT", "2.5",
                "ORDERS_PRICE_BANDS", "ETHUSD:0", "ORDERS_ENGINE_STP_DEFAULT", "expire_both")).tradingRules();
        assertEquals(250, custom.priceBand(0));
        assertEquals(0, custom.priceBand(1));
        assertEquals(io.orderentry.engine.SelfTradePrevention.EXPIRE_BOTH, custom.selfTradePreventionDefault());
        assertEquals("2.5", TradingRules.percent(250));
        assertEquals("10", TradingRules.percent(1_000));
        assertEquals("0", TradingRules.percent(0));
    }

    @Test
    void aBandThatIsNotAPercentageBelowOneHundredWithTwoDecimalsOrNamesAnUnknownInstrumentIsRefused() {
        for (final Map<String, String> bad : java.util.List.of(Map.of("ORDERS_PRICE_BAND_PERCENT", "100"),
                Map.of("ORDERS_PRICE_BAND_PERCENT", "-1"), Map.of("ORDERS_PRICE_BAND_PERCENT", "0.001"),
                Map.of("ORDERS_PRICE_BAND_PERCENT", "ten"), Map.of("ORDERS_PRICE_BANDS", "DOGEUSD:5"),
                Map.of("ORDERS_PRICE_BANDS", "BTCUSD"), Map.of("ORDERS_PRICE_BANDS", "BTCUSD:5,BTCUSD:6"),
                Map.of("ORDERS_ENGINE_STP_DEFAULT", "CANCEL_OLDEST"))) {
            final ConfigException e = assertThrows(ConfigException.class, () -> ConfigLoader.load(bad), bad.toString());
            assertTrue(e.getMessage().contains(bad.keySet().iterator().next()), e.getMessage());
        }
    }

    @Test
    void environmentVariablesOverrideDefaults() {
        final Config config = ConfigLoader.load(Map.of("ORDERS_HTTP_PORT", "9090", "ORDERS_JOURNAL_SYNC", "none",
                "ORDERS_INPUT_RING_SIZE", "1024", "ORDERS_OUTPUT_RING_SIZE", "2048", "ORDERS_DB_URL", ""));
        assertEquals(9090, config.http().port());
        assertEquals(JournalSync.NONE, config.journal().sync());
        assertEquals(1024, config.pipeline().inputRingSize());
        assertEquals(2048, config.pipeline().outputRingSize());
        assertTrue(config.database().isEmpty(), "an empty ORDERS_DB_URL disables persistence");
    }

    @Test
    void fileOverridesDefaultsAndEnvironmentOverridesFile(@TempDir final Path dir) throws Exception {
        final Path file = dir.resolve("orders.properties");
        Files.writeString(file, "http.port=7000\njournal.dir=/tmp/j\n");
        final Config config = ConfigLoader.load(Map.of(ConfigLoader.CONFIG_FILE_ENV, file.toString(),
                "ORDERS_HTTP_PORT", "7001"));
        assertEquals(7001, config.http().port());
        assertEquals(Path.of("/tmp/j"), config.journal().directory());
    }

    @Test
    void priceUnitsCountPricesFinerThanTheTickAndKeepTheMaximumPriceItsDecimalValueWhereItFits(
            @TempDir final Path journal) {
        final Instrument btc = ConfigLoader.load(Map.of("ORDERS_PRICE_UNITS", "BTCUSD:0.001",
                "ORDERS_INSTRUMENTS", "BTCUSD:0.01:0.0001:1000:1000000", "ORDERS_JOURNAL_DIR", journal.toString()))
                .instruments().get(0);
        assertEquals(new java.math.BigDecimal("0.001"), btc.priceUnit());
        assertEquals(new java.math.BigDecimal("0.01"), btc.tickSize());
        assertEquals(10, btc.unitsPerTick());
        assertEquals(3, btc.priceScale());
        assertEquals(new java.math.BigDecimal("1000000.000"), btc.price(btc.maxPrice()));
        final Instrument capped = ConfigLoader.load(Map.of("ORDERS_PRICE_UNITS", "BTCUSD:0.001",
                "ORDERS_JOURNAL_DIR", journal.toString())).instruments().get(0);
        assertEquals(Instrument.MAX_NOTIONAL / capped.maxQuantity(), capped.maxPrice(),
                "10^9 ticks of 0.01 would not fit with 10^9 lots: capped where price x quantity fits");
    }

    @Test
    void priceUnitThatIsNotADivisorOfTheTickOrNamesAnUnknownSymbolIsRefused() {
        final ConfigException notDivisor = assertThrows(ConfigException.class,
                () -> ConfigLoader.load(Map.of("ORDERS_PRICE_UNITS", "BTCUSD:0.003")));
        assertTrue(notDivisor.getMessage().contains("ORDERS_PRICE_UNITS: BTCUSD's tick size 0.01 is not a whole multiple"
                + " of its price unit 0.003"), notDivisor.getMessage());
        final ConfigException unknown = assertThrows(ConfigException.class,
                () -> ConfigLoader.load(Map.of("ORDERS_PRICE_UNITS", "SOLUSD:0.001")));
        assertTrue(unknown.getMessage().contains("[SOLUSD] not in ORDERS_INSTRUMENTS"), unknown.getMessage());
        assertThrows(ConfigException.class, () -> ConfigLoader.load(Map.of("ORDERS_PRICE_UNITS", "BTCUSD")));
        assertThrows(ConfigException.class, () -> ConfigLoader.load(Map.of("ORDERS_PRICE_UNITS", "BTCUSD:-1")));
    }

    @Test
    void anHttpConnectionBoundThatStreamSubscribersCouldFillIsRefused() {
        final ConfigException refused = assertThrows(ConfigException.class,
                () -> ConfigLoader.load(Map.of("ORDERS_HTTP_MAX_CONNECTIONS", "10000")));
        assertTrue(refused.getMessage().contains("ORDERS_HTTP_MAX_CONNECTIONS (10000) must be at least"
                + " ORDERS_WS_MAX_CONNECTIONS (10000) + 100"), refused.getMessage());
        assertEquals(10_100, ConfigLoader.load(Map.of("ORDERS_HTTP_MAX_CONNECTIONS", "10100")).http()
                .maxConnections());
    }

    @Test
    void unknownKeyInFileIsRefusedWithItsName(@TempDir final Path dir) throws Exception {
        final Path file = dir.resolve("orders.properties");
        Files.writeString(file, "http.prot=7000\n");
        final ConfigException e = assertThrows(ConfigException.class,
                () -> ConfigLoader.load(Map.of(ConfigLoader.CONFIG_FILE_ENV, file.toString())));
        assertTrue(e.getMessage().contains("http.prot"), e.getMessage());
    }

    @Test
    void badValuesAreRefusedWithTheVariableName() {
        assertMessage(Map.of("ORDERS_INPUT_RING_SIZE", "1000"), "ORDERS_INPUT_RING_SIZE must be a power of two");
        assertMessage(Map.of("ORDERS_HTTP_PORT", "http"), "ORDERS_HTTP_PORT must be a whole number");
        assertMessage(Map.of("ORDERS_JOURNAL_SYNC", "sometimes"), "ORDERS_JOURNAL_SYNC must be 'fsync' or 'none'");
        assertMessage(Map.of("ORDERS_INSTRUMENTS", "BTCUSD:0.01"), "ORDERS_INSTRUMENTS");
        assertMessage(Map.of("ORDERS_INSTRUMENTS", "BTCUSD:0.01:0.1,BTCUSD:0.1:1"), "listed twice");
        assertMessage(Map.of("ORDERS_DB_URL", "mysql://x"), "ORDERS_DB_URL must be a jdbc:postgresql: URL");
        assertMessage(Map.of("ORDERS_QUERY_RETAINED_FINAL_ORDERS", "1000"), "must be at least ORDERS_ENGINE_DEDUP_WINDOW");
    }

    @Test
    void persistenceSettingsHaveDefaultsAndCanBeOverridden() {
        final DatabaseConfig defaults = ConfigLoader.load(Map.of()).database().orElseThrow();
        assertEquals(Path.of("./data/spool"), defaults.spoolDir());
        assertEquals(100, defaults.batchMillis());
        assertEquals(2, defaults.connectTimeoutSeconds());
        assertEquals(5_000, defaults.retryMaxMillis());
        final DatabaseConfig set = ConfigLoader.load(Map.of("ORDERS_PERSISTENCE_SPOOL_DIR", "/tmp/s",
                "ORDERS_PERSISTENCE_BATCH_SIZE", "500", "ORDERS_DB_CONNECT_TIMEOUT_SECONDS", "5",
                "ORDERS_PERSISTENCE_RETRY_MAX_MILLIS", "250", "ORDERS_PERSISTENCE_SPOOL_SEGMENT_BYTES", "1048576"))
                .database().orElseThrow();
        assertEquals(Path.of("/tmp/s"), set.spoolDir());
        assertEquals(500, set.batchSize());
        assertEquals(5, set.connectTimeoutSeconds());
        assertEquals(250, set.retryMaxMillis());
        assertEquals(1_048_576, set.spoolSegmentBytes());
        assertMessage(Map.of("ORDERS_DB_CONNECT_TIMEOUT_SECONDS", "0"), "ORDERS_DB_CONNECT_TIMEOUT_SECONDS must be between");
    }

    @Test
    void instrumentsWhoseNotionalCouldOverflowAreRefused() {
        assertMessage(Map.of("ORDERS_INSTRUMENTS", "BTCUSD:0.00000001:0.00000001:10000000000:10000000000"),
                "must stay below");
    }

    @Test
    void instrumentLimitsAreReadInDecimalUnits(@TempDir final Path journal) {
        // a journal directory of its own: the default ./data/journal may hold a manifest from running the service
        // here (README's run command, then its test command), whose recorded price unit would win over the tick
        final Instrument btc = ConfigLoader.load(Map.of("ORDERS_INSTRUMENTS", "BTCUSD:0.5:0.01:100:2000",
                "ORDERS_JOURNAL_DIR", journal.toString()))
                .instruments().get(0);
        assertEquals(10_000L, btc.maxQuantity());
        assertEquals(4_000L, btc.maxPrice());
        assertEquals(new BigDecimal("12.5"), btc.price(25));
    }

    @Test
    void auditTrailDefaultsToDataAuditWithoutFsyncAndIsConfigurable() {
        final AuditConfig defaults = ConfigLoader.load(Map.of()).audit();
        assertEquals(Path.of("./data/audit"), defaults.directory());
        assertEquals(AuditSync.NONE, defaults.sync());
        assertEquals(AuditConfig.DEFAULT_FILE_BYTES, defaults.maxFileBytes());
        final AuditConfig set = ConfigLoader.load(Map.of("ORDERS_AUDIT_DIR", "/tmp/a", "ORDERS_AUDIT_SYNC", "FSYNC",
                "ORDERS_AUDIT_MAX_FILE_BYTES", "8192")).audit();
        assertEquals(Path.of("/tmp/a"), set.directory());
        assertEquals(AuditSync.FSYNC, set.sync());
        assertEquals(8192, set.maxFileBytes());
        assertMessage(Map.of("ORDERS_AUDIT_SYNC", "always"), "ORDERS_AUDIT_SYNC must be 'fsync' or 'none'");
        assertMessage(Map.of("ORDERS_AUDIT_MAX_FILE_BYTES", "100"), "ORDERS_AUDIT_MAX_FILE_BYTES must be between 4096");
        assertMessage(Map.of("ORDERS_AUDIT_DIR", ""), "ORDERS_AUDIT_DIR must name a directory");
    }

    @Test
    void authenticationIsOnByDefaultWithTheKeysFileBesideTheJournalDirectory() {
        final AuthConfig auth = ConfigLoader.load(Map.of()).auth();
        assertTrue(auth.enabled());
        assertFalse(auth.adminOnlyOps(), "ORDERS_AUTH_OPS defaults to open");
        assertFalse(auth.tls());
        assertEquals(Path.of("./data").toAbsolutePath().normalize().resolve("keys"), auth.keysFile());
        assertEquals(Path.of("/srv/oe/keys"),
                ConfigLoader.load(Map.of("ORDERS_JOURNAL_DIR", "/srv/oe/journal")).auth().keysFile());
        assertEquals(Path.of("/etc/oe/api-keys"), ConfigLoader.load(Map.of("ORDERS_JOURNAL_DIR", "/srv/oe/journal",
                "ORDERS_AUTH_KEYS_FILE", "/etc/oe/api-keys")).auth().keysFile());
    }

    @Test
    void authMustBeKeysOrNoneAndOpsOpenOrAdmin() {
        assertFalse(ConfigLoader.load(Map.of("ORDERS_AUTH", "none")).auth().enabled());
        assertTrue(ConfigLoader.load(Map.of("ORDERS_AUTH", "KEYS")).auth().enabled(), "case does not matter");
        assertTrue(ConfigLoader.load(Map.of("ORDERS_AUTH_OPS", "admin")).auth().adminOnlyOps());
        assertMessage(Map.of("ORDERS_AUTH", "basic"), "ORDERS_AUTH must be 'keys' or 'none', was 'basic'");
        assertMessage(Map.of("ORDERS_AUTH", ""), "ORDERS_AUTH must be 'keys' or 'none'");
        assertMessage(Map.of("ORDERS_AUTH", "off"), "ORDERS_AUTH must be 'keys' or 'none'");
        assertMessage(Map.of("ORDERS_AUTH_OPS", "closed"), "ORDERS_AUTH_OPS must be 'open' or 'admin', was 'closed'");
    }

    @Test
    void rateLimitsAreReadPerBudgetAndZeroTurnsOneOff() {
        final AuthConfig auth = ConfigLoader.load(Map.of("ORDERS_RATE_LIMIT_REQUESTS_PER_SECOND", "5",
                "ORDERS_RATE_LIMIT_REQUESTS_BURST", "7", "ORDERS_RATE_LIMIT_ORDERS_PER_SECOND", "0",
                "ORDERS_RATE_LIMIT_ADDRESS_BURST", "9")).auth();
        assertEquals(5, auth.requests().perSecond());
        assertEquals(7, auth.requests().burst());
        assertFalse(auth.orders().enabled());
        assertEquals(9, auth.address().burst());
        assertMessage(Map.of("ORDERS_RATE_LIMIT_ORDERS_BURST", "0"), "ORDERS_RATE_LIMIT_ORDERS_BURST must be between 1");
        assertMessage(Map.of("ORDERS_RATE_LIMIT_ADDRESS_PER_SECOND", "-1"),
                "ORDERS_RATE_LIMIT_ADDRESS_PER_SECOND must be between 0");
    }

    @Test
    void tlsNeedsTheCertificateAndTheKeyTogetherAndBothReadable(@TempDir final Path dir) throws Exception {
        final Path cert = Files.writeString(dir.resolve("cert.pem"), "-----BEGIN CERTIFICATE-----\n");
        final Path key = Files.writeString(dir.resolve("key.pem"), "-----BEGIN PRIVATE KEY-----\n");
        final String together = "ORDERS_TLS_CERT and ORDERS_TLS_KEY must be set together";
        assertMessage(Map.of("ORDERS_TLS_CERT", cert.toString()), together);
        assertMessage(Map.of("ORDERS_TLS_KEY", key.toString()), together);
        assertMessage(Map.of("ORDERS_TLS_CERT", cert.toString(), "ORDERS_TLS_KEY", dir.resolve("absent").toString()),
                "the TLS file " + dir.resolve("absent") + " cannot be read");
        assertMessage(Map.of("ORDERS_TLS_CERT", dir.resolve("absent").toString(), "ORDERS_TLS_KEY", key.toString()),
                "the TLS file " + dir.resolve("absent") + " cannot be read");
        final AuthConfig tls = ConfigLoader.load(Map.of("ORDERS_TLS_CERT", cert.toString(), "ORDERS_TLS_KEY",
                key.toString())).auth();
        assertTrue(tls.tls());
        assertEquals(cert, tls.tlsCert());
        assertEquals(key, tls.tlsKey());
    }

    @Test
    void aMisspeltVariableIsReportedWithTheClosestSetting() {
        final Map<String, String> env = Map.of("ORDERS_JORNAL_SYNC", "none", "ORDERS_HTTP_PORT", "9090",
                "PATH", "/usr/bin");
        assertEquals(java.util.List.of("ORDERS_JORNAL_SYNC is not a setting (did you mean ORDERS_JOURNAL_SYNC?);"
                + " it is ignored"), ConfigLoader.unknownVariables(env));
        // a warning, never a refusal: the service runs with the default
        assertEquals(JournalSync.FSYNC, ConfigLoader.load(env).journal().sync());
        assertEquals(java.util.List.of(), ConfigLoader.unknownVariables(Map.of("ORDERS_DB_PASSWORD", "secret",
                ConfigLoader.CONFIG_FILE_ENV, "/etc/orders.properties")));
    }

    /**
     * Every ORDERS_ variable that the README, the container files, CI, the benchmarks, the load tests and the test
     * fixtures set or read is known, so that none of them is ever reported (the tools' own variables, such as
     * ORDERS_JAR, reach the service when a script starts it from its own environment).
     */
    @Test
    void everyDocumentedAndFixtureVariableIsKnown() throws Exception {
        final java.util.regex.Pattern name = java.util.regex.Pattern.compile("ORDERS_[A-Z0-9_]*[A-Z0-9](?![A-Z0-9_*])");
        final java.util.List<Path> files = new java.util.ArrayList<>(java.util.List.of(Path.of("README.md"),
                Path.of("Dockerfile"), Path.of(".ci/run"),
                Path.of("src/test/java/io/orderentry/testing/ServiceProcess.java"),
                Path.of("src/test/java/io/orderentry/testing/RunningService.java"),
                Path.of("src/test/java/io/orderentry/testing/PostgresFixture.java"),
                Path.of("src/test/java/io/orderentry/bench/http/FixedRateLoad.java")));
        for (final String dir : java.util.List.of("docker", "bench", "loadtest", "docs")) {
            try (java.util.stream.Stream<Path> walk = Files.walk(Path.of(dir))) {
                // text only: the README's picture (docs/dashboard.png) and Python's byte code name no variable
                walk.filter(Files::isRegularFile).filter(f -> !f.toString().endsWith(".png")
                        && !f.toString().endsWith(".pyc")).forEach(files::add);
            }
        }
        try (java.util.stream.Stream<Path> list = Files.list(Path.of("."))) {
            list.filter(f -> f.getFileName().toString().startsWith("docker-compose")).forEach(files::add);
        }
        final Map<String, String> env = new java.util.TreeMap<>();
        for (final Path file : files) {
            final java.util.regex.Matcher found = name.matcher(Files.readString(file));
            while (found.find()) {
                env.put(found.group(), "x");
            }
        }
        // the main code names variables as string literals only (ConfigLoader builds the rest from the keys)
        try (java.util.stream.Stream<Path> walk = Files.walk(Path.of("src/main/java"))) {
            for (final Path file : walk.filter(Files::isRegularFile).toList()) {
                final java.util.regex.Matcher found = java.util.regex.Pattern.compile("\"(" + name.pattern() + ")")
                        .matcher(Files.readString(file));
                while (found.find()) {
                    env.put(found.group(1), "x");
                }
            }
        }
        env.remove("ORDERS_JORNAL_SYNC");   // the README's example of a misspelt variable
        assertTrue(env.size() > 90, () -> "found only " + env.keySet());
        assertTrue(env.containsKey("ORDERS_JAR") && env.containsKey("ORDERS_LOAD_KEYS"), env.keySet()::toString);
        assertEquals(java.util.List.of(), ConfigLoader.unknownVariables(env));
        for (final String key : ConfigLoader.defaults().stringPropertyNames()) {
            assertEquals(java.util.List.of(), ConfigLoader.unknownVariables(Map.of(SettingNames.envName(key), "x")));
        }
    }

    private static void assertMessage(final Map<String, String> env, final String expected) {
        final ConfigException e = assertThrows(ConfigException.class, () -> ConfigLoader.load(env));
        assertTrue(e.getMessage().contains(expected), () -> "'" + e.getMessage() + "' should contain '" + expected + "'");
    }
}
