package io.orderentry.app;

import io.orderentry.engine.EngineLimits;
import io.orderentry.journal.JournalReader;
import java.io.IOException;
import java.io.StringReader;
import java.math.BigDecimal;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;

/**
 * The configuration a journal's records mean something under, kept beside them in
 * {@value #FILE_NAME}: each instrument's tick and lot size (a record holds prices and quantities as counts of
 * them) and the engine limits (which decide how a record replays: an order accepted under one limit can be
 * rejected under a lower one). Checked before every replay, so that a restart cannot silently reinterpret the
 * history; written atomically (temporary file, fsync, rename, fsync of the directory).
 *
 * <p>What may change across a restart: new instruments, and every setting not listed here (an instrument's
 * maximum price and quantity are checked at the HTTP edge only, never in replay). What may not: an instrument's
 * tick or lot size, removing an instrument, any engine limit. A refused start names the setting, the journal's
 * value and the configured one.
 *
 * <p>Threads: called once at startup, before the replay, with the journal directory locked.
 */
final class JournalManifest {

    /** The manifest's file name in the journal directory. */
    static final String FILE_NAME = "configuration.properties";
    private static final int FORMAT = 1;

    /** What {@link #check} found. */
    enum Outcome {
        /** No journal yet: the manifest was written from the configuration. */
        CREATED,
        /** The journal's configuration and this one agree. */
        MATCHED,
        /** They agree, and instruments were added; the manifest now lists them. */
        EXTENDED,
        /** A journal written before manifests existed: the configuration was recorded now, unchecked. */
        RECORDED_FOR_EXISTING_JOURNAL
    }

    private JournalManifest() {
    }

    /**
     * Compares the configuration with the one the journal in {@code directory} was written under, and records it
     * when the journal has none yet.
     *
     * @return what was found
     * @throws ConfigException if the configuration changed in a way that would change what the records mean or
     *                         how they replay, or if the manifest cannot be read
     * @throws IOException     if the manifest cannot be written
     */
    static Outcome check(final Path directory, final List<Instrument> instruments, final EngineLimits limits)
            throws IOException {
        final Path file = directory.resolve(FILE_NAME);
        final Map<String, String> wanted = entries(instruments, limits);
        final boolean hasRecords = JournalReader.hasSegments(directory);
        if (!hasRecords) {
            write(file, wanted);
            return Outcome.CREATED;
        }
        if (!Files.exists(file)) {
            write(file, wanted);
            return Outcome.RECORDED_FOR_EXISTING_JOURNAL;
        }
        final Map<String, String> recorded = read(file);
        final List<String> problems = differences(recorded, wanted);
        if (!problems.isEmpty()) {
            throw new ConfigException("the configuration does not match the one the journal in " + directory
                    + " was written under, so replaying it would change what its records mean: "
                    + String.join("; ", problems) + ". Restore the journal's values (they are in " + file + "), or"
                    + " start with a new journal directory (README, \"Configuration the journal depends on\")");
        }
        if (recorded.keySet().containsAll(wanted.keySet())) {
            return Outcome.MATCHED;
        }
        write(file, wanted);
        return Outcome.EXTENDED;
    }

    /**
     * @return each way {@code now} would change what records written under {@code recorded} mean, in words naming
     *         the setting, its old and its new value; empty when {@code now} only adds instruments or equals it
     */
    static List<String> differences(final Map<String, String> recorded, final Map<String, String> now) {
        final List<String> problems = new ArrayList<>();
        for (final Map.Entry<String, String> entry : recorded.entrySet()) {
            final String key = entry.getKey();
            final String value = now.get(key);
            if (key.startsWith("instrument.") && value == null) {
                final String symbol = key.substring("instrument.".length(), key.lastIndexOf('.'));
                if (key.endsWith(".tickSize")) {
                    problems.add(ConfigLoader.envName("instruments") + ": " + symbol + " is no longer configured, but"
                            + " the journal holds its orders (tick " + entry.getValue() + "); keep it in the list");
                }
            } else if (value == null || !same(entry.getValue(), value)) {
                problems.add(describe(key, entry.getValue(), value));
            }
        }
        return problems;
    }

    /** The settings that decide what a record means, as manifest entries. */
    static Map<String, String> entries(final List<Instrument> instruments, final EngineLimits limits) {
        final Map<String, String> entries = new LinkedHashMap<>();
        entries.put("engine.max.resting.orders", Integer.toString(limits.maxRestingOrders()));
        entries.put("engine.max.open.orders.per.account", Integer.toString(limits.maxOpenOrdersPerAccount()));
        entries.put("engine.max.price.levels.per.side", Integer.toString(limits.maxPriceLevelsPerSide()));
        entries.put("engine.dedup.window", Integer.toString(limits.dedupWindow()));
        for (final Instrument instrument : instruments) {
            entries.put("instrument." + instrument.symbol() + ".tickSize", instrument.tickSize().toPlainString());
            entries.put("instrument." + instrument.symbol() + ".lotSize", instrument.lotSize().toPlainString());
        }
        return entries;
    }

    private static String describe(final String key, final String recorded, final String now) {
        if (key.startsWith("instrument.")) {
            final String symbol = key.substring("instrument.".length(), key.lastIndexOf('.'));
            final String what = key.endsWith(".tickSize") ? "tick size" : "lot size";
            return ConfigLoader.envName("instruments") + ": " + symbol + " " + what + " was " + recorded + " when the"
                    + " journal was written, is " + now + " now";
        }
        return ConfigLoader.envName(key) + " was " + recorded + " when the journal was written, is " + now + " now";
    }

    /** Decimal settings compare by value (0.010 is 0.01); the others as text. */
    private static boolean same(final String recorded, final String now) {
        if (recorded.equals(now)) {
            return true;
        }
        try {
            return new BigDecimal(recorded).compareTo(new BigDecimal(now)) == 0;
        } catch (final NumberFormatException e) {
            return false;
        }
    }

    private static Map<String, String> read(final Path file) throws IOException {
        final Properties properties = new Properties();
        try {
            properties.load(new StringReader(Files.readString(file, StandardCharsets.UTF_8)));
        } catch (final IllegalArgumentException e) {
            throw new ConfigException(file + " cannot be read (" + e.getMessage() + "); it records the configuration"
                    + " the journal was written under: restore it from a backup");
        }
        final String format = properties.getProperty("format");
        if (!Integer.toString(FORMAT).equals(format)) {
            throw new ConfigException(file + " has format " + format + ", this build reads " + FORMAT);
        }
        final Map<String, String> entries = new LinkedHashMap<>();
        for (final String name : properties.stringPropertyNames()) {
            if (!"format".equals(name)) {
                entries.put(name, properties.getProperty(name));
            }
        }
        return entries;
    }

    private static void write(final Path file, final Map<String, String> entries) throws IOException {
        final StringBuilder text = new StringBuilder()
                .append("# The configuration the journal's records were written under; checked at every start.\n")
                .append("# Written by order-entry; do not edit (README, \"Configuration the journal depends on\").\n")
                .append("format=").append(FORMAT).append('\n');
        for (final Map.Entry<String, String> entry : entries.entrySet()) {
            text.append(entry.getKey()).append('=').append(entry.getValue()).append('\n');
        }
        final Path temporary = file.resolveSibling(FILE_NAME + ".tmp");
        try (FileChannel channel = FileChannel.open(temporary, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING)) {
            final java.nio.ByteBuffer bytes = java.nio.ByteBuffer.wrap(text.toString().getBytes(StandardCharsets.UTF_8));
            while (bytes.hasRemaining()) {
                channel.write(bytes);
            }
            channel.force(true);
        }
        Files.move(temporary, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        try (FileChannel parent = FileChannel.open(file.getParent(), StandardOpenOption.READ)) {
            parent.force(true);
        }
    }
}
