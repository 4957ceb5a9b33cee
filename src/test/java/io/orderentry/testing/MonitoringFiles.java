package io.orderentry.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The monitoring files of the repository ({@code monitoring/}: the Grafana dashboard, the Prometheus alert rules) as
 * the tests read them: every PromQL expression they hold, where it stands, and the metric names it reads.
 */
public final class MonitoringFiles {

    public static final Path DASHBOARD = Path.of("monitoring/grafana/dashboards/order-entry.json");
    public static final Path ALERTS = Path.of("monitoring/prometheus/alerts.yml");
    public static final Path ALERT_TESTS = Path.of("monitoring/prometheus/alerts.test.yml");

    /** Series Prometheus makes itself, not the service. */
    private static final Set<String> PROMETHEUS_OWN = Set.of("up", "ALERTS", "ALERTS_FOR_STATE");

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    private MonitoringFiles() {
    }

    /** @return the dashboard, parsed */
    public static JsonNode dashboard() {
        return read(JSON, DASHBOARD);
    }

    /** @return the alert rules file, parsed */
    public static JsonNode alerts() {
        return read(YAML, ALERTS);
    }

    /** @return the promtool unit tests of the alert rules, parsed */
    public static JsonNode alertTests() {
        return read(YAML, ALERT_TESTS);
    }

    /** @return every panel of the dashboard that is not a row, in order */
    public static List<JsonNode> panels() {
        final List<JsonNode> panels = new ArrayList<>();
        for (final JsonNode panel : dashboard().path("panels")) {
            if (!"row".equals(panel.path("type").asText())) {
                panels.add(panel);
            }
        }
        return panels;
    }

    /** @return every alerting rule, in order */
    public static List<JsonNode> alertRules() {
        final List<JsonNode> rules = new ArrayList<>();
        for (final JsonNode group : alerts().path("groups")) {
            for (final JsonNode rule : group.path("rules")) {
                rules.add(rule);
            }
        }
        return rules;
    }

    /** @return each expression of the dashboard and the alert rules, by where it stands ("panel X, query A") */
    public static Map<String, String> expressions() {
        final Map<String, String> expressions = new LinkedHashMap<>();
        for (final JsonNode panel : panels()) {
            for (final JsonNode target : panel.path("targets")) {
                expressions.put("panel '" + panel.path("title").asText() + "' query " + target.path("refId").asText(),
                        target.path("expr").asText());
            }
        }
        for (final JsonNode rule : alertRules()) {
            expressions.put("alert " + rule.path("alert").asText(), rule.path("expr").asText());
        }
        return expressions;
    }

    /** @return the metric names the service must expose for the dashboard and the alert rules, sorted */
    public static Set<String> metricNames() {
        final Set<String> names = new TreeSet<>();
        for (final String expression : expressions().values()) {
            names.addAll(PromQl.metricNames(expression));
        }
        names.removeAll(PROMETHEUS_OWN);
        return names;
    }

    /** @return the names of the series a {@code /metrics} text holds (samples, not only HELP and TYPE lines) */
    public static Set<String> exposedSeries(final String metricsText) {
        final Set<String> names = new TreeSet<>();
        for (final String line : metricsText.split("\n")) {
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            int end = 0;
            while (end < line.length() && line.charAt(end) != '{' && line.charAt(end) != ' ') {
                end++;
            }
            names.add(line.substring(0, end));
        }
        return names;
    }

    private static JsonNode read(final ObjectMapper mapper, final Path path) {
        try {
            return mapper.readTree(path.toFile());
        } catch (final IOException e) {
            throw new UncheckedIOException("cannot read " + path, e);
        }
    }
}
