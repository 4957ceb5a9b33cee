package io.orderentry.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.orderentry.config.SettingNames;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * No Docker engine runs here, so the container setup is checked by reading it: the compose file's
 * services, ports, volumes, healthchecks and environment must match what the application reads, and
 * the Dockerfile must copy the jar the Maven build produces.
 */
class ContainerSetupTest {

    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
    /** {@code ${NAME:-default}}: compose's interpolation with a default. */
    private static final Pattern INTERPOLATION = Pattern.compile("\\$\\{([A-Z_]+):-([^}]*)}");

    private static Set<String> knownVariables() {
        final Set<String> known = new HashSet<>();
        for (final String key : ConfigLoader.defaults().stringPropertyNames()) {
            known.add(SettingNames.envName(key));
        }
        known.add(ConfigLoader.CONFIG_FILE_ENV);
        return known;
    }

    /** The health check's script in the repository, and where the Dockerfile puts it. */
    private static final String HEALTH_CHECK_SCRIPT = "docker/healthcheck.sh";
    private static final String HEALTH_CHECK_IN_IMAGE = "/app/healthcheck.sh";

    /** A compose health check runs the image's script, which speaks https once TLS is on, not a fixed http URL. */
    private static void assertUsesTheHealthCheckScript(final JsonNode test) {
        assertEquals("[\"CMD\",\"sh\",\"" + HEALTH_CHECK_IN_IMAGE + "\"]", test.toString());
    }

    private static JsonNode compose() throws Exception {
        return YAML.readTree(Path.of("docker-compose.yml").toFile());
    }

    /** A service's environment as compose gives it when the shell sets none of the variables it interpolates. */
    private static Map<String, String> environment(final JsonNode service) {
        final Map<String, String> env = new HashMap<>();
        service.path("environment").fields().forEachRemaining(e -> env.put(e.getKey(),
                INTERPOLATION.matcher(e.getValue().asText()).replaceAll("$2")));
        return env;
    }

    @Test
    void composeHasPostgresAppAndLoadtestWithHealthchecks() throws Exception {
        final JsonNode services = compose().get("services");
        final JsonNode postgres = services.get("postgres");
        assertTrue(postgres.get("image").asText().startsWith("postgres:16"), "PostgreSQL 16");
        assertTrue(postgres.get("healthcheck").get("test").toString().contains("pg_isready"));
        final JsonNode app = services.get("app");
        assertEquals("service_healthy", app.get("depends_on").get("postgres").get("condition").asText(),
                "the app starts after the database is healthy");
        assertUsesTheHealthCheckScript(app.get("healthcheck").get("test"));
        final JsonNode loadtest = services.get("loadtest");
        assertEquals("loadtest", loadtest.get("profiles").get(0).asText(), "the load test runs only on demand");
        assertTrue(Files.isRegularFile(Path.of(loadtest.get("build").asText(), "Dockerfile")));
        assertTrue(List.of("smoke", "light", "medium").contains(loadtest.get("command").get(0).asText()));
    }

    @Test
    void worstCaseGracefulStopEndsWithinTheComposeGracePeriod() throws Exception {
        final String grace = compose().get("services").get("app").get("stop_grace_period").asText();
        assertTrue(grace.matches("\\d+s"), "stop_grace_period in seconds: " + grace);
        final long graceMillis = Long.parseLong(grace.substring(0, grace.length() - 1)) * 1000;
        final long worstStop = StopSequence.BUDGET_MILLIS
                + StopSequence.STEPS * StopSequence.MIN_STEP_MILLIS;
        assertTrue(worstStop + 5_000 <= graceMillis, "a stop takes at most " + worstStop
                + " ms (its budget, then one minimum per step), which must leave compose's " + graceMillis
                + " ms grace 5 s for the JVM's exit before the SIGKILL");
    }

    @Test
    void appIsConfiguredOnlyThroughVariablesTheServiceReads() throws Exception {
        final JsonNode app = compose().get("services").get("app");
        final Set<String> known = knownVariables();
        final Map<String, String> env = environment(app);
        assertFalse(env.isEmpty());
        for (final String name : env.keySet()) {
            assertTrue(known.contains(name), name + " is not a setting the service reads");
        }
        assertEquals("8080:8080", app.get("ports").get(0).asText());
        assertEquals("8080", env.get("ORDERS_HTTP_PORT"));
        ConfigLoader.load(env);
    }

    @Test
    void appReachesTheComposeDatabaseWithItsCredentials() throws Exception {
        final JsonNode services = compose().get("services");
        final Map<String, String> db = environment(services.get("postgres"));
        final Map<String, String> app = environment(services.get("app"));
        assertEquals("jdbc:postgresql://postgres:5432/" + db.get("POSTGRES_DB"), app.get("ORDERS_DB_URL"));
        assertEquals(db.get("POSTGRES_USER"), app.get("ORDERS_DB_USER"));
        assertEquals(db.get("POSTGRES_PASSWORD"), app.get("ORDERS_DB_PASSWORD"));
        final Map<String, String> loadtest = environment(services.get("loadtest"));
        assertEquals("postgres", loadtest.get("PGHOST"));
        assertEquals(db.get("POSTGRES_DB"), loadtest.get("PGDATABASE"));
        assertEquals(db.get("POSTGRES_PASSWORD"), loadtest.get("PGPASSWORD"));
    }

    @Test
    void journalAndAuditLiveOnNamedVolumesWhereTheAppWritesThem() throws Exception {
        final JsonNode root = compose();
        final JsonNode app = root.get("services").get("app");
        final Map<String, String> env = environment(app);
        final Map<String, String> mounts = new HashMap<>();
        for (final JsonNode volume : app.get("volumes")) {
            final String[] parts = volume.asText().split(":");
            mounts.put(parts[1], parts[0]);
            assertNotNull(root.get("volumes").get(parts[0]), parts[0] + " is not a declared named volume");
        }
        assertNotNull(mounts.get(env.get("ORDERS_JOURNAL_DIR")), "the journal directory is on a volume");
        assertNotNull(mounts.get(env.get("ORDERS_AUDIT_DIR")), "the audit directory is on a volume");
        assertNotNull(root.get("volumes").get(root.get("services").get("postgres").get("volumes").get(0).asText()
                .split(":")[0]));
    }

    @Test
    void apiKeysAreOnByDefaultAndTheKeysFileLivesOnAVolumeOfItsOwn() throws Exception {
        final JsonNode root = compose();
        final JsonNode app = root.get("services").get("app");
        final Map<String, String> env = environment(app);
        assertTrue(ConfigLoader.load(env).auth().enabled(), "compose runs the service with API keys by default");
        final Path keysFile = Path.of(env.get("ORDERS_AUTH_KEYS_FILE"));
        final Map<String, String> mounts = new HashMap<>();
        for (final JsonNode volume : app.get("volumes")) {
            final String[] parts = volume.asText().split(":");
            mounts.put(parts[1], parts[0]);
        }
        final String keysVolume = mounts.get(keysFile.getParent().toString());
        assertNotNull(keysVolume, "the keys file's directory is a volume: a recreated container keeps the keys");
        assertNotNull(root.get("volumes").get(keysVolume));

        final String dockerfile = Files.readString(Path.of("Dockerfile"));
        assertTrue(dockerfile.contains("ORDERS_AUTH_KEYS_FILE=" + keysFile), "the image uses the same file");
        final Matcher volume = Pattern.compile("(?m)^VOLUME \\[(.*)]").matcher(dockerfile);
        assertTrue(volume.find());
        assertTrue(volume.group(1).contains("\"" + keysFile.getParent() + "\""), volume.group(1));
        assertTrue(dockerfile.contains("mkdir -p") && dockerfile.contains(" " + keysFile.getParent() + " "),
                "the image creates the directory, so the volume starts owned by the service's user");
    }

    @Test
    void dockerfileCopiesTheJarTheBuildProducesAndRunsSafely() throws Exception {
        final String dockerfile = Files.readString(Path.of("Dockerfile"));
        final String pom = Files.readString(Path.of("pom.xml"));
        final Matcher finalName = Pattern.compile("<finalName>([^<]+)</finalName>").matcher(pom);
        assertTrue(finalName.find());
        assertTrue(dockerfile.contains("COPY --from=build /src/target/" + finalName.group(1) + ".jar"),
                "the Dockerfile must copy target/" + finalName.group(1) + ".jar");
        assertTrue(dockerfile.contains("mvn -B -q -DskipTests package"));
        assertTrue(dockerfile.matches("(?s).*FROM eclipse-temurin:\\d+-jre.*"), "a slim Temurin JRE runtime");
        final Matcher user = Pattern.compile("(?m)^USER (\\S+)").matcher(dockerfile);
        assertTrue(user.find());
        assertFalse(user.group(1).equals("root") || user.group(1).equals("0"), "runs as a non-root user");
        final Matcher healthcheck = Pattern.compile("(?m)^HEALTHCHECK .*\\\\\n\\s*CMD (.*)$").matcher(dockerfile);
        assertTrue(healthcheck.find(), "a HEALTHCHECK");
        assertEquals("[\"sh\", \"" + HEALTH_CHECK_IN_IMAGE + "\"]", healthcheck.group(1),
                "the image checks itself with the script that picks http or https");
        assertTrue(dockerfile.contains("COPY " + HEALTH_CHECK_SCRIPT + " " + HEALTH_CHECK_IN_IMAGE + "\n"),
                "the image holds the script");
        assertTrue(dockerfile.contains("EXPOSE 8080"));
        assertTrue(dockerfile.contains("COPY bin/order-entry /app/bin/order-entry\n"), "the image holds the start script");
        assertTrue(dockerfile.contains("ENTRYPOINT [\"/app/bin/order-entry\"]"),
                "the image starts the service as the README does, with the script's JVM flags");

        final Set<String> known = knownVariables();
        final Matcher env = Pattern.compile("(ORDERS_[A-Z_]+)=(\\S+)").matcher(dockerfile);
        final Map<String, String> variables = new HashMap<>();
        while (env.find()) {
            assertTrue(known.contains(env.group(1)), env.group(1) + " is not a setting the service reads");
            variables.put(env.group(1), env.group(2).replace("\\", ""));
        }
        final Matcher volume = Pattern.compile("(?m)^VOLUME \\[(.*)]").matcher(dockerfile);
        assertTrue(volume.find());
        assertTrue(volume.group(1).contains("\"" + variables.get("ORDERS_JOURNAL_DIR") + "\""));
        assertTrue(volume.group(1).contains("\"" + variables.get("ORDERS_AUDIT_DIR") + "\""));
    }

    @Test
    void theHealthCheckScriptAsksReadyOverHttpsWhenTlsIsOnAndUsesOnlyShAndCurl() throws Exception {
        final String script = Files.readString(Path.of(HEALTH_CHECK_SCRIPT));
        assertTrue(script.startsWith("#!/bin/sh\n"), "POSIX sh, which the image has");
        assertTrue(script.contains("setting ORDERS_TLS_CERT 'tls\\.cert'"), "TLS on is read as the service reads it");
        assertTrue(script.contains("scheme=https") && script.contains("scheme=http\n"), script);
        assertTrue(script.contains("curl -fsS -k ") && script.contains("\"$scheme://$host:$port/ready\""), script);
        assertTrue(script.contains("setting ORDERS_HTTP_PORT 'http\\.port'"), "the port the service listens on");
        final String dockerfile = Files.readString(Path.of("Dockerfile"));
        assertTrue(dockerfile.contains("install -y --no-install-recommends curl"), "the image has curl");
        assertFalse(dockerfile.contains("http://127.0.0.1:8080/ready"), "no fixed http URL left in the image");
        for (final String file : List.of("docker-compose.yml", "docker-compose.cluster.yml")) {
            assertFalse(Files.readString(Path.of(file)).contains("http://127.0.0.1:8080/ready"), file);
        }
    }

    @Test
    void theClusterComposeRunsThreeMembersOfOneClusterOnOneDatabaseEachWithItsOwnStateAFsyncedLogAndOneSecret(
            @TempDir final Path work) throws Exception {
        final Path secret = work.resolve("cluster-secret");
        Files.writeString(secret, "c2VjcmV0IG1hZGUgYnkgdGhlIGNsdXN0ZXItc2VjcmV0IHNlcnZpY2U=\n");
        Files.setPosixFilePermissions(secret, java.nio.file.attribute.PosixFilePermissions.fromString("rw-------"));
        final JsonNode root = YAML.readTree(Path.of("docker-compose.cluster.yml").toFile());
        final JsonNode services = root.get("services");
        final Map<String, String> db = environment(services.get("postgres"));
        assertTrue(services.get("postgres").get("image").asText().startsWith("postgres:16"));
        final Set<String> known = knownVariables();
        final Set<String> ports = new HashSet<>();
        final Set<String> ownVolumes = new HashSet<>();
        String memberList = null;
        for (int id = 0; id < 3; id++) {
            final String name = "member" + id;
            final JsonNode member = services.get(name);
            assertNotNull(member, name);
            final Map<String, String> env = environment(member);
            for (final String variable : env.keySet()) {
                assertTrue(known.contains(variable), variable + " is not a setting the service reads");
            }
            final String secretFile = env.get("ORDERS_CLUSTER_SECRET_FILE");
            assertNotNull(secretFile, "cluster mode needs the members' shared secret");
            final Map<String, String> here = new HashMap<>(env);
            here.put("ORDERS_CLUSTER_SECRET_FILE", secret.toString());   // the compose volume's file is not here
            final Config config = ConfigLoader.load(here);
            final io.orderentry.cluster.ClusterConfig cluster = config.cluster().orElseThrow();
            assertTrue(cluster.fsync(), "three members on one host share its power: without fsync one power loss"
                    + " can lose orders already answered 201 (ORDERS_CLUSTER_FSYNC=true in the cluster compose file)");
            assertEquals(id, cluster.memberId());
            assertEquals(3, cluster.parsedMembers().length);
            assertTrue(cluster.self().consensusEndpoint().startsWith(name + ":"),
                    "each member's endpoints are its own service name: " + cluster.self().consensusEndpoint());
            memberList = memberList == null ? env.get("ORDERS_CLUSTER_MEMBERS") : memberList;
            assertEquals(memberList, env.get("ORDERS_CLUSTER_MEMBERS"), "one member list for all");
            assertEquals("jdbc:postgresql://postgres:5432/" + db.get("POSTGRES_DB"), env.get("ORDERS_DB_URL"));
            assertEquals(db.get("POSTGRES_PASSWORD"), env.get("ORDERS_DB_PASSWORD"));
            assertTrue(config.auth().enabled(), "API keys by default");
            assertEquals("service_healthy", member.get("depends_on").get("postgres").get("condition").asText());
            assertEquals("service_completed_successfully",
                    member.get("depends_on").get("keys").get("condition").asText(),
                    "the shared keys file exists before any member starts, so no two members create it");
            assertUsesTheHealthCheckScript(member.get("healthcheck").get("test"));
            assertTrue(ports.add(member.get("ports").get(0).asText().split(":")[0]), "a host port per member");
            final Map<String, String> mounts = new HashMap<>();
            for (final JsonNode volume : member.get("volumes")) {
                final String[] parts = volume.asText().split(":");
                mounts.put(parts[1], parts[0]);
                assertNotNull(root.get("volumes").get(parts[0]), parts[0] + " is not a declared named volume");
            }
            for (final String own : List.of(env.get("ORDERS_CLUSTER_DIR"), env.get("ORDERS_AUDIT_DIR"),
                    env.get("ORDERS_PERSISTENCE_SPOOL_DIR"))) {
                assertNotNull(mounts.get(own), own + " is on a volume");
                assertTrue(ownVolumes.add(mounts.get(own)), mounts.get(own) + " belongs to one member only");
            }
            assertEquals("keys", mounts.get(Path.of(env.get("ORDERS_AUTH_KEYS_FILE")).getParent().toString()),
                    "one keys file for all members");
            assertEquals("keys", mounts.get(Path.of(secretFile).getParent().toString()),
                    "one secret for all members, on the keys volume");
            assertEquals("service_completed_successfully",
                    member.get("depends_on").get("cluster-secret").get("condition").asText(),
                    "the secret exists before any member starts");
            assertEquals(1, member.get("ports").size(), "only HTTP is published: the Aeron ports stay on the"
                    + " compose network");
        }
        final JsonNode secretMaker = services.get("cluster-secret");
        final String makes = secretMaker.get("entrypoint").toString();
        assertTrue(makes.contains("test -s /app/data/keys/cluster-secret ||") && makes.contains("umask 077")
                && makes.contains("/dev/urandom"), "made once, random, owner-only: " + makes);
        assertTrue(secretMaker.get("volumes").toString().contains("keys:/app/data/keys"));
        final JsonNode keys = services.get("keys");
        assertEquals("/app/data/keys/keys", environment(keys).get("ORDERS_AUTH_KEYS_FILE"));
        assertTrue(keys.get("entrypoint").toString().contains("keys create --account demo"));
        final String dockerfile = Files.readString(Path.of("Dockerfile"));
        assertTrue(dockerfile.contains(" /app/data/cluster"), "the image creates the cluster directory, so its"
                + " volume starts owned by the service's user");
    }
}
