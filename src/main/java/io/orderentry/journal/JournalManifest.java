package io.orderentry.journal;

import io.orderentry.config.ConfigException;
import io.orderentry.config.SettingNames;
import io.orderentry.engine.EngineConfig;
import io.orderentry.instrument.Instrument;
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
 * {@value #FILE_NAME}: each instrument's price unit and lot size (a record holds prices and quantities as counts of
 * them), its tick size, and the engine limits (which decide how a record replays: an order accepted under one limit
 * can be rejected under a lower one). Checked before every replay, so that a restart cannot silently reinterpret the
 * history; written atomically (temporary file, fsync, rename, fsync of the directory).
 *
 * <p>What may change across a restart: new instruments; an instrument's tick size, so long as it stays a whole
 * multiple of the journal's price unit (the tick only decides which prices an order may carry, never what a record
 * means: each change is recorded here with its time and logged); and every setting not listed here (an instrument's
 * maximum price and quantity are checked at the HTTP edge only, never in replay); with balances, new assets (after
 * the recorded ones). What may not: an instrument's price unit or lot size, removing an instrument, any engine limit,
 * the risk mode, and with balances an asset's scale or place in the list, an instrument's base or quote asset, and the
 * fee account (fee rates are journaled as commands instead). A refused start names the setting, the journal's
 * value and the configured one.
 *
 * <p>Format 1 (before price units) recorded only the tick, which was then the unit; it reads as such.
 *
 * <p>Threads: called once at startup, before the replay, with the journal directory locked.
 */
public final class JournalManifest {

    /** The manifest's file name in the journal directory. */
    public static final String FILE_NAME = "configuration.properties";
    private static final int FORMAT = 2;
    private static final String INSTRUMENT = "instrument.";
    private static final String PRICE_UNIT = ".priceUnit";
    private static final String TICK_SIZE = ".tickSize";
    private static final String TICK_CHANGES = ".tickSizeChanges";
    private static final String RISK = "risk";
    private static final String RISK_INSTRUMENT = "risk.instrument.";

    /** What {@link #check} found. */
    public enum Outcome {
        /** No journal yet: the manifest was written from the configuration. */
        CREATED,
        /** The journal's configuration and this one agree. */
        MATCHED,
        /** They agree; instruments were added or tick sizes changed, and the manifest now records that. */
        EXTENDED,
        /** A journal written before manifests existed: the configuration was recorded now, unchecked. */
        RECORDED_FOR_EXISTING_JOURNAL
    }

    /**
     * What {@link #check} found, and each tick size that changed since the last start, in words.
     */
    public record Result(Outcome outcome, List<String> tickChanges) {
    }

    private JournalManifest() {
    }

    /**
     * @return {@code instruments} with each one's prices counted in the price unit the journal in {@code directory}
     *         records for it, where that differs from the one configured and the configured one is the default (the
     *         tick): so that a start with a new tick size keeps the journal's unit. Instruments the journal does not
     *         know, or an explicitly configured unit that differs from the journal's (refused by {@link #check}), are
     *         left as configured. Reads only.
     */
    public static List<Instrument> withRecordedPriceUnits(final Path directory, final List<Instrument> instruments)
            throws IOException {
        final Path file = directory.resolve(FILE_NAME);
        if (!Files.exists(file) || !JournalReader.hasSegments(directory)) {
            return instruments;
        }
        final Map<String, String> recorded = read(file);
        final List<Instrument> resolved = new ArrayList<>(instruments.size());
        for (final Instrument instrument : instruments) {
            final String unit = recorded.get(INSTRUMENT + instrument.symbol() + PRICE_UNIT);
            if (unit != null && instrument.priceUnit().compareTo(instrument.tickSize()) == 0
                    && new BigDecimal(unit).compareTo(instrument.priceUnit()) != 0
                    && instrument.tickSize().remainder(new BigDecimal(unit)).signum() == 0) {
                resolved.add(instrument.withPriceUnit(new BigDecimal(unit)));
            } else {
                resolved.add(instrument);
            }
        }
        return resolved;
    }

    /**
     * Compares the configuration with the one the journal in {@code directory} was written under, and records it
     * when the journal has none yet, or when instruments were added or tick sizes changed.
     *
     * @return what was found
     * @throws ConfigException if the configuration changed in a way that would change what the records mean or
     *                         how they replay, or if the manifest cannot be read
     * @throws IOException     if the manifest cannot be written
     */
    public static Result check(final Path directory, final List<Instrument> instruments, final EngineConfig limits)
            throws IOException {
        final Path file = directory.resolve(FILE_NAME);
        final Map<String, String> wanted = entries(instruments, limits);
        final boolean hasRecords = JournalReader.hasSegments(directory);
        if (!hasRecords) {
            write(file, wanted);
            return new Result(Outcome.CREATED, List.of());
        }
        if (!Files.exists(file)) {
            write(file, wanted);
            return new Result(Outcome.RECORDED_FOR_EXISTING_JOURNAL, List.of());
        }
        final Map<String, String> recorded = read(file);
        final List<String> problems = differences(recorded, wanted);
        if (!problems.isEmpty()) {
            throw new ConfigException("the configuration does not match the one the journal in " + directory
                    + " was written under, so replaying it would change what its records mean: "
                    + String.join("; ", problems) + ". Restore the journal's values (they are in " + file + "), or"
                    + " start with a new journal directory (README, \"Configuration the journal depends on\")");
        }
        final List<String> tickChanges = new ArrayList<>();
        final Map<String, String> next = new LinkedHashMap<>(wanted);
        for (final Instrument instrument : instruments) {
            final String key = INSTRUMENT + instrument.symbol() + TICK_SIZE;
            final String history = recorded.get(INSTRUMENT + instrument.symbol() + TICK_CHANGES);
            final String before = recorded.get(key);
            String changes = history;
            if (before != null && !same(before, wanted.get(key))) {
                final String change = java.time.Instant.now().truncatedTo(java.time.temporal.ChronoUnit.SECONDS)
                        + " " + before + " -> " + wanted.get(key);
                changes = history == null ? change : history + ", " + change;
                tickChanges.add(instrument.symbol() + " tick size " + before + " -> " + wanted.get(key) + " (price"
                        + " unit " + instrument.priceUnit().toPlainString() + " unchanged)");
            }
            if (changes != null) {
                next.put(INSTRUMENT + instrument.symbol() + TICK_CHANGES, changes);
            }
        }
        if (tickChanges.isEmpty() && recorded.keySet().containsAll(wanted.keySet())) {
            return new Result(Outcome.MATCHED, List.of());
        }
        write(file, next);
        return new Result(Outcome.EXTENDED, List.copyOf(tickChanges));
    }

    /**
     * @return each way {@code now} would change what records written under {@code recorded} mean, in words naming
     *         the setting, its old and its new value; empty when {@code now} only adds instruments, changes tick
     *         sizes within the recorded price units, or equals it
     */
    public static List<String> differences(final Map<String, String> recordedEntries, final Map<String, String> now) {
        final Map<String, String> recorded = upgraded(recordedEntries);
        final List<String> problems = new ArrayList<>();
        final String recordedRisk = recorded.getOrDefault(RISK, "none");
        if (!recordedRisk.equals(now.getOrDefault(RISK, "none"))) {
            problems.add(SettingNames.envName(RISK) + " was " + recordedRisk + " when the journal was written, is "
                    + now.getOrDefault(RISK, "none") + " now (balances are held from a journal's first command on)");
        }
        for (final Map.Entry<String, String> entry : recorded.entrySet()) {
            final String key = entry.getKey();
            if (key.equals(RISK) || key.startsWith(RISK + ".") && !recordedRisk.equals(now.getOrDefault(RISK, "none"))) {
                continue;   // reported once above
            }
            if (key.startsWith(RISK_INSTRUMENT) && !now.containsKey(key)) {
                continue;   // reported once, as the instrument's removal
            }
            if (key.startsWith(INSTRUMENT)) {
                final String symbol = key.substring(INSTRUMENT.length(), key.lastIndexOf('.'));
                if (key.endsWith(TICK_SIZE) || key.endsWith(TICK_CHANGES)) {
                    // what a record means does not depend on the tick; only that the unit stays
                    if (key.endsWith(TICK_SIZE) && !now.containsKey(key)) {
                        problems.add(SettingNames.envName("instruments") + ": " + symbol + " is no longer configured,"
                                + " but the journal holds its orders (tick " + entry.getValue() + "); keep it in the list");
                    }
                    continue;
                }
                final String value = now.get(key);
                if (value == null) {
                    continue;   // reported once, as the instrument's removal
                }
                if (key.endsWith(PRICE_UNIT) && !same(entry.getValue(), value)) {
                    final BigDecimal tick = new BigDecimal(now.get(INSTRUMENT + symbol + TICK_SIZE));
                    problems.add(tick.remainder(new BigDecimal(entry.getValue())).signum() != 0
                            ? SettingNames.envName("instruments") + ": " + symbol + " tick size " + tick.toPlainString()
                            + " is not a whole multiple of the journal's price unit " + entry.getValue() + " (a tick"
                            + " may change only to a multiple of the price unit the journal was started with)"
                            : describe(key, entry.getValue(), value));
                } else if (!same(entry.getValue(), value)) {
                    problems.add(describe(key, entry.getValue(), value));
                }
            } else {
                final String value = now.get(key);
                if (value == null || !same(entry.getValue(), value)) {
                    problems.add(describe(key, entry.getValue(), value));
                }
            }
        }
        return problems;
    }

    /** The settings that decide what a record means, and the tick sizes, as manifest entries. */
    public static Map<String, String> entries(final List<Instrument> instruments, final EngineConfig limits) {
        final Map<String, String> entries = new LinkedHashMap<>();
        entries.put("engine.max.resting.orders", Integer.toString(limits.maxRestingOrders()));
        entries.put("engine.max.open.orders.per.account", Integer.toString(limits.maxOpenOrdersPerAccount()));
        entries.put("engine.max.price.levels.per.side", Integer.toString(limits.maxPriceLevelsPerSide()));
        entries.put("engine.dedup.window", Integer.toString(limits.dedupWindow()));
        if (limits.risk() != null) {
            entries.putAll(limits.risk().manifestEntries(instruments.stream().map(Instrument::symbol).toList()));
        }
        for (final Instrument instrument : instruments) {
            entries.put(INSTRUMENT + instrument.symbol() + PRICE_UNIT, instrument.priceUnit().toPlainString());
            entries.put(INSTRUMENT + instrument.symbol() + TICK_SIZE, instrument.tickSize().toPlainString());
            entries.put(INSTRUMENT + instrument.symbol() + ".lotSize", instrument.lotSize().toPlainString());
        }
        return entries;
    }

    /**
     * @return {@code recorded} as this format reads it: a format 1 manifest or snapshot recorded the tick size, which
     *         was then also the price unit
     */
    static Map<String, String> upgraded(final Map<String, String> recorded) {
        final Map<String, String> entries = new LinkedHashMap<>(recorded);
        for (final Map.Entry<String, String> entry : recorded.entrySet()) {
            final String key = entry.getKey();
            if (key.startsWith(INSTRUMENT) && key.endsWith(TICK_SIZE)) {
                entries.putIfAbsent(key.substring(0, key.length() - TICK_SIZE.length()) + PRICE_UNIT, entry.getValue());
            }
        }
        return entries;
    }

    private static String describe(final String key, final String recorded, final String now) {
        if (key.startsWith("instrument.")) {
            final String symbol = key.substring("instrument.".length(), key.lastIndexOf('.'));
            final String what = key.endsWith(PRICE_UNIT) ? "price unit" : "lot size";
            return SettingNames.envName("instruments") + ": " + symbol + " " + what + " was " + recorded + " when the"
                    + " journal was written, is " + now + " now";
        }
        if (key.startsWith(RISK + ".")) {
            return "balances: " + key.substring(RISK.length() + 1) + " was '" + recorded + "' when the journal was"
                    + " written, is " + (now == null ? "gone" : "'" + now + "'") + " now (" + SettingNames.envName("assets")
                    + ", " + SettingNames.envName("instrument.assets") + " and " + SettingNames.envName("fee.account")
                    + " decide what the journal's amounts mean)";
        }
        return SettingNames.envName(key) + " was " + recorded + " when the journal was written, is " + now + " now";
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
        if (!"1".equals(format) && !Integer.toString(FORMAT).equals(format)) {
            throw new ConfigException(file + " has format " + format + ", this build reads 1 and " + FORMAT);
        }
        final Map<String, String> entries = new LinkedHashMap<>();
        for (final String name : properties.stringPropertyNames()) {
            if (!"format".equals(name)) {
                entries.put(name, properties.getProperty(name));
            }
        }
        return upgraded(entries);
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
