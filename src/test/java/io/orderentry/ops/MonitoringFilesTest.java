package io.orderentry.ops;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.orderentry.testing.MonitoringFiles;
import io.orderentry.testing.PromQl;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * The monitoring stack of {@code docker compose --profile monitoring up} is checked by reading it, since no Docker
 * engine runs here: the compose files start Prometheus and Grafana with the files of {@code monitoring/}, Prometheus
 * scrapes every instance of the service the compose file runs and loads the alert rules, Grafana gets the data source
 * the dashboard names, the dashboard shows what an operator asks for, and every alert has its runbook line in the
 * README. That every metric they name is one the service exposes is {@code MonitoringMetricsIT}'s, against the jar.
 */
class MonitoringFilesTest {

    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
    private static final Path README = Path.of("README.md");
    /** A runbook row of the README's alert table: {@code | `OrderEntryDown` | critical | ...}. */
    private static final Pattern RUNBOOK_ROW = Pattern.compile("^\\| `(OrderEntry[A-Za-z0-9]+)` \\| (warning|critical)"
            + " \\|", Pattern.MULTILINE);

    private static JsonNode yaml(final String path) throws IOException {
        return YAML.readTree(Path.of(path).toFile());
    }

    @Test
    void bothComposeFilesStartPrometheusAndGrafanaOnlyInTheMonitoringProfileWithTheRepositorysFiles()
            throws IOException {
        for (final String file : List.of("docker-compose.yml", "docker-compose.cluster.yml")) {
            final JsonNode services = yaml(file).path("services");
            final List<String> monitoring = new ArrayList<>();
            services.fields().forEachRemaining(service -> {
                if (service.getValue().path("profiles").toString().contains("\"monitoring\"")) {
                    monitoring.add(service.getKey());
                }
            });
            assertEquals(List.of("prometheus", "grafana"), monitoring, file + ": the monitoring profile's services");
            for (final String name : monitoring) {
                final JsonNode service = services.path(name);
                assertFalse(service.path("image").asText().endsWith(":latest") || !service.path("image").asText()
                        .contains(":"), file + ": " + name + " pins its image's version");
                for (final JsonNode port : service.path("ports")) {
                    assertTrue(port.asText().startsWith("127.0.0.1:"), file + ": " + name + " publishes " + port
                            + " beyond this host's loopback; its figures say how much the venue trades");
                }
                for (final JsonNode volume : service.path("volumes")) {
                    final String source = volume.asText().split(":")[0];
                    if (source.startsWith("./")) {
                        assertTrue(Files.exists(Path.of(source)), file + ": " + name + " mounts " + source
                                + ", which is not in the repository");
                    } else {
                        assertTrue(yaml(file).path("volumes").has(source), file + ": volume " + source + " declared");
                    }
                }
            }
            final Map<String, String> prometheusMounts = mounts(services.path("prometheus"));
            assertEquals("./monitoring/prometheus/alerts.yml", prometheusMounts.get("/etc/prometheus/alerts.yml"),
                    file + ": the alert rules beside the configuration, where its rule_files finds them");
            assertTrue(services.path("prometheus").path("command").toString()
                    .contains("--config.file=/etc/prometheus/prometheus.yml"), file);
            final Map<String, String> grafanaMounts = mounts(services.path("grafana"));
            assertEquals("./monitoring/grafana/provisioning", grafanaMounts.get("/etc/grafana/provisioning"), file);
            assertEquals("./monitoring/grafana/dashboards", grafanaMounts.get("/var/lib/grafana/dashboards"), file);
            final JsonNode grafanaEnv = services.path("grafana").path("environment");
            assertEquals("true", grafanaEnv.path("GF_AUTH_ANONYMOUS_ENABLED").asText(), file + ": no login to look");
            assertEquals("Viewer", grafanaEnv.path("GF_AUTH_ANONYMOUS_ORG_ROLE").asText(), file
                    + ": anonymous visitors may look, not change");
            assertEquals("/var/lib/grafana/dashboards/" + MonitoringFiles.DASHBOARD.getFileName(),
                    grafanaEnv.path("GF_DASHBOARDS_DEFAULT_HOME_DASHBOARD_PATH").asText(), file
                    + ": the dashboard is the home page");
        }
    }

    @Test
    void prometheusScrapesEveryInstanceOfTheServiceTheComposeFileRunsAndLoadsTheAlertRules() throws IOException {
        assertScrapes("docker-compose.yml", "monitoring/prometheus/prometheus.yml", Set.of("app"));
        assertScrapes("docker-compose.cluster.yml", "monitoring/prometheus/prometheus-cluster.yml",
                Set.of("member0", "member1", "member2"));
    }

    private static void assertScrapes(final String composeFile, final String configFile, final Set<String> services)
            throws IOException {
        final JsonNode compose = yaml(composeFile).path("services");
        assertEquals("./" + configFile, mounts(compose.path("prometheus")).get("/etc/prometheus/prometheus.yml"),
                composeFile + " runs Prometheus with " + configFile);
        final Set<String> expected = new TreeSet<>();
        for (final String service : services) {
            final String port = compose.path(service).path("environment").path("ORDERS_HTTP_PORT").asText();
            assertFalse(port.isEmpty(), composeFile + ": " + service + " sets ORDERS_HTTP_PORT");
            expected.add(service + ":" + port);
        }
        final JsonNode config = yaml(configFile);
        assertEquals("[\"alerts.yml\"]", config.path("rule_files").toString(), configFile);
        final Set<String> targets = new TreeSet<>();
        for (final JsonNode job : config.path("scrape_configs")) {
            assertEquals("/metrics", job.path("metrics_path").asText("/metrics"), configFile);
            assertTrue(job.path("job_name").asText().startsWith("order-entry"), configFile
                    + ": the alert rules select the service's jobs by their names, order-entry...");
            for (final JsonNode group : job.path("static_configs")) {
                group.path("targets").forEach(target -> targets.add(target.asText()));
            }
        }
        assertEquals(expected, targets, configFile + " scrapes every instance of the service in " + composeFile);
    }

    @Test
    void grafanaGetsThePrometheusDataSourceTheDashboardNamesAndLoadsTheDashboardFolder() throws IOException {
        final JsonNode sources = yaml("monitoring/grafana/provisioning/datasources/prometheus.yml").path("datasources");
        assertEquals(1, sources.size());
        final JsonNode source = sources.get(0);
        assertEquals("prometheus", source.path("type").asText());
        assertEquals("http://prometheus:9090", source.path("url").asText(), "the compose service's name and port");
        final String uid = source.path("uid").asText();
        for (final JsonNode panel : MonitoringFiles.panels()) {
            assertEquals(uid, panel.path("datasource").path("uid").asText(), panel.path("title").asText());
            for (final JsonNode target : panel.path("targets")) {
                assertEquals(uid, target.path("datasource").path("uid").asText(), panel.path("title").asText());
            }
        }
        final JsonNode providers = yaml("monitoring/grafana/provisioning/dashboards/order-entry.yml")
                .path("providers");
        assertEquals("/var/lib/grafana/dashboards", providers.get(0).path("options").path("path").asText());
    }

    @Test
    void theDashboardShowsWhatAnOperatorLooksAtEachPanelWithAQueryAndAUniqueId() {
        final JsonNode dashboard = MonitoringFiles.dashboard();
        assertEquals("order-entry", dashboard.path("uid").asText(), "a stable uid: links to the dashboard keep working");
        final Set<Integer> ids = new HashSet<>();
        final Set<String> titles = new HashSet<>();
        for (final JsonNode panel : dashboard.path("panels")) {
            assertTrue(ids.add(panel.path("id").asInt()), "panel id " + panel.path("id") + " used twice");
            assertTrue(panel.path("gridPos").has("w") && panel.path("gridPos").has("h"), panel.toString());
            if (!"row".equals(panel.path("type").asText())) {
                assertTrue(titles.add(panel.path("title").asText()), "two panels are titled " + panel.path("title")
                        + ": bench/dashboard.sh finds them by title");
                assertFalse(panel.path("targets").isEmpty(), panel.path("title") + " has no query");
                for (final JsonNode target : panel.path("targets")) {
                    assertFalse(target.path("expr").asText().isBlank(), panel.path("title") + " has an empty query");
                }
                assertFalse(panel.path("description").asText().isBlank(), panel.path("title") + " says what it shows");
            }
        }
        // the list, each by the panel that answers it
        for (final String required : List.of("Order requests per second by HTTP status", "Order answer latency",
                "Ring fill", "Journal fsync time", "Journal batch size", "Audit trail", "Persistence lag (events)",
                "Persistence lag (seconds)", "Persistence state", "Spool and journal on disk", "Free disk",
                "GC pause time", "WebSocket subscribers", "WebSocket bytes sent", "Rate-limited and refused",
                "Role per member", "Leader as each member sees it", "Commit and log positions")) {
            assertTrue(titles.contains(required), "the dashboard has no panel '" + required + "'");
        }
        final Set<String> variables = new HashSet<>();
        dashboard.path("templating").path("list").forEach(v -> variables.add(v.path("name").asText()));
        assertEquals(Set.of("job", "instance"), variables);
    }

    @Test
    void everyQueryOfTheDashboardAndTheRulesReadsAMetricAndClosesItsBrackets() {
        for (final Map.Entry<String, String> each : MonitoringFiles.expressions().entrySet()) {
            assertFalse(PromQl.metricNames(each.getValue()).isEmpty(), each.getKey() + " reads no metric: "
                    + each.getValue());
        }
    }

    @Test
    void everyAlertHasASeverityAnnotationsAndItsRunbookLineInTheReadme() throws IOException {
        final String readme = Files.readString(README, StandardCharsets.UTF_8);
        final Set<String> rows = new TreeSet<>();
        final Matcher row = RUNBOOK_ROW.matcher(readme);
        while (row.find()) {
            assertTrue(rows.add(row.group(1)), row.group(1) + " has two runbook rows");
        }
        final Set<String> alerts = new TreeSet<>();
        for (final JsonNode rule : MonitoringFiles.alertRules()) {
            final String name = rule.path("alert").asText();
            assertTrue(alerts.add(name), name + " defined twice");
            assertTrue(Set.of("warning", "critical").contains(rule.path("labels").path("severity").asText()), name);
            final JsonNode annotations = rule.path("annotations");
            assertFalse(annotations.path("summary").asText().isBlank(), name + " has a summary");
            assertFalse(annotations.path("description").asText().isBlank(), name + " has a description");
            assertEquals("README.md, Monitoring: " + name, annotations.path("runbook").asText(), name);
            final Matcher severity = Pattern.compile("^\\| `" + name + "` \\| (\\w+) \\|", Pattern.MULTILINE)
                    .matcher(readme);
            assertTrue(severity.find(), name + " has no runbook row in the README");
            assertEquals(rule.path("labels").path("severity").asText(), severity.group(1), name
                    + ": the README's severity");
        }
        assertEquals(alerts, rows, "the README's runbook rows and the alert rules name the same alerts");
    }

    @Test
    void everyAlertIsSeenToFireInTheRuleTests() {
        final Set<String> fired = new TreeSet<>();
        final Set<String> silent = new TreeSet<>();
        for (final JsonNode test : MonitoringFiles.alertTests().path("tests")) {
            for (final JsonNode check : test.path("alert_rule_test")) {
                (check.path("exp_alerts").isEmpty() ? silent : fired).add(check.path("alertname").asText());
            }
        }
        final Set<String> alerts = new TreeSet<>();
        MonitoringFiles.alertRules().forEach(rule -> alerts.add(rule.path("alert").asText()));
        assertEquals(alerts, fired, "alerts.test.yml shows each alert firing");
        assertTrue(alerts.containsAll(silent), "alerts.test.yml checks only alerts that exist: " + silent);
        assertEquals(List.of("alerts.yml"), List.of(MonitoringFiles.alertTests().path("rule_files").get(0).asText()));
    }

    /**
     * promtool, where Debian's {@code prometheus} package gives it (CI installs it): the rules and both configurations
     * as Prometheus reads them, and the rule tests run. Without it the checks above are the parser's.
     */
    @Test
    void promtoolAcceptsTheRulesAndBothConfigurationsAndTheRuleTestsPass() throws Exception {
        Assumptions.assumeTrue(onPath("promtool"), "promtool is not installed (apt-get install prometheus): the"
                + " rules are checked by the parser tests of this class only");
        promtool("check", "rules", "monitoring/prometheus/alerts.yml");
        promtool("check", "config", "monitoring/prometheus/prometheus.yml");
        promtool("check", "config", "monitoring/prometheus/prometheus-cluster.yml");
        promtool("test", "rules", "monitoring/prometheus/alerts.test.yml");
    }

    private static void promtool(final String... args) throws Exception {
        final List<String> command = new ArrayList<>(List.of("promtool"));
        command.addAll(List.of(args));
        final Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        final String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(process.waitFor(60, TimeUnit.SECONDS), String.join(" ", command) + " did not end");
        assertEquals(0, process.exitValue(), String.join(" ", command) + ":\n" + output);
    }

    private static boolean onPath(final String program) {
        for (final String dir : System.getenv().getOrDefault("PATH", "").split(":")) {
            if (Files.isExecutable(Path.of(dir, program))) {
                return true;
            }
        }
        return false;
    }

    /** @return a compose service's bind mounts and volumes, by where they appear in the container */
    private static Map<String, String> mounts(final JsonNode service) {
        final Map<String, String> mounts = new java.util.HashMap<>();
        for (final JsonNode volume : service.path("volumes")) {
            final String[] parts = volume.asText().split(":");
            assertNotNull(parts[1]);
            mounts.put(parts[1], parts[0]);
        }
        return mounts;
    }
}
