package io.orderentry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The layering the README describes, read from the sources: every reference from one of our packages to another (an
 * import, or a fully qualified name in the code), checked against the rules, so that a dependency pointing the wrong
 * way fails the build instead of waiting for a review to notice it.
 */
class ArchitectureTest {

    private static final Path MAIN = Path.of("src/main/java/io/orderentry");
    /**
     * {@code io.orderentry.<package>[.<sub-package>...].<Upper...>}: a reference to one of our classes, by its
     * top-level package (a sub-package such as {@code http.rest} is part of its layer, {@code http}).
     */
    private static final Pattern OURS = Pattern.compile("\\bio\\.orderentry\\.([a-z]+)(?:\\.[a-z]+)*\\.[A-Z]");
    /** An import of anything that is not the JDK's or ours: a framework or a library. */
    private static final Pattern FOREIGN_IMPORT = Pattern.compile("^import (static )?(?!java\\.|io\\.orderentry\\.)([\\w.]+);",
            Pattern.MULTILINE);

    /** One source file's reference to another package of ours. */
    private record Reference(String fromPackage, Path file, String toPackage) {
        @Override
        public String toString() {
            return MAIN.relativize(file) + " -> " + toPackage;
        }
    }

    private static List<Reference> references() throws IOException {
        final List<Reference> references = new ArrayList<>();
        try (Stream<Path> files = Files.walk(MAIN)) {
            for (final Path file : files.filter(f -> f.toString().endsWith(".java")).toList()) {
                final String from = MAIN.relativize(file).getName(0).toString();
                final String source = Files.readString(file);
                final Matcher m = OURS.matcher(source);
                final Set<String> to = new TreeSet<>();
                while (m.find()) {
                    if (!m.group(1).equals(from)) {
                        to.add(m.group(1));
                    }
                }
                to.forEach(p -> references.add(new Reference(from, file, p)));
            }
        }
        assertTrue(references.size() > 100, "the scan found our sources: " + references.size());
        return references;
    }

    @Test
    void onlyTheAppPackageWiresThingsTogetherSoNothingElseDependsOnIt() throws IOException {
        assertEquals(List.of(), references().stream().filter(r -> r.toPackage().equals("app")).toList());
    }

    @Test
    void theEngineDependsOnNothingOfOursAndOnNoFramework() throws IOException {
        assertEquals(List.of(), references().stream().filter(r -> r.fromPackage().equals("engine")).toList());
        final List<String> foreign = new ArrayList<>();
        try (Stream<Path> files = Files.list(MAIN.resolve("engine"))) {
            for (final Path file : files.filter(f -> f.toString().endsWith(".java")).toList()) {
                final Matcher m = FOREIGN_IMPORT.matcher(Files.readString(file));
                while (m.find()) {
                    foreign.add(file.getFileName() + " imports " + m.group(2));
                }
            }
        }
        assertEquals(List.of(), foreign);
    }

    @Test
    void theStagesBehindTheRingsDoNotDependOnTheHttpEdge() throws IOException {
        final Set<String> behind = Set.of("persistence", "journal", "audit", "engine", "pipeline", "snapshot",
                "instrument", "config");
        assertEquals(List.of(), references().stream()
                .filter(r -> behind.contains(r.fromPackage()) && r.toPackage().equals("http")).toList());
    }

    @Test
    void theOpsStateDoesNotDependOnTheHttpEdgeThatServesIt() throws IOException {
        assertEquals(List.of(), references().stream()
                .filter(r -> r.fromPackage().equals("ops") && r.toPackage().equals("http")).toList());
    }

    @Test
    void instrumentsAndConfigurationAreLeavesThatEveryComponentMayUse() throws IOException {
        final Set<String> allowed = Set.of("engine", "config");
        assertEquals(List.of(), references().stream()
                .filter(r -> (r.fromPackage().equals("instrument") || r.fromPackage().equals("config"))
                        && !allowed.contains(r.toPackage()))
                .toList());
    }
}
