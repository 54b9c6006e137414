package dev.qaldy.runtime.bundles.control;

import dev.qaldy.contract.apps.AppLabel;
import dev.qaldy.contract.files.KeptFile;
import jakarta.json.Json;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonReader;
import jakarta.json.JsonValue;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The highest live-clock sequence this runtime host saw per app (issue 16, item 4): a signed live
 * record or tombstone below it is an older one written back into the shared cache, and is refused.
 * Kept in a file of the host's own, outside the shared data-centre cache (whoever can write that
 * cache cannot lower the marks), written atomically ({@link KeptFile}) whenever a mark rises, never
 * lowered, read when the host starts.
 *
 * <p>Bounded in count ({@value #MAX_APPS} apps in a host): past it the lowest mark goes, and the floor rises to it,
 * so a record of an app without a mark of its own counts only from the floor on (fail closed: the
 * sequence is cell-wide, so an evicted app's current record is at least its evicted mark). A file
 * that cannot be read is set aside and logged, and the floor becomes "unproven": no record of an
 * app without a mark is taken (a 503 in an outage) until the control plane's tombstone says how
 * far its clock is ({@link #clockSeen}), and that state is written at once, so a restart keeps it.
 */
public class LiveMarks {

    /** What the file's {@code format} says. */
    static final String FORMAT = "qaldy-live-marks/1";
    /** Apps with a mark of their own, at most, by default. */
    public static final int MAX_APPS = 100_000;
    /** Largest file read, bytes (about 40 bytes an app). */
    static final int MAX_FILE_BYTES = 16 * 1024 * 1024;
    /** The floor while no mark can be trusted: nothing without a mark of its own is taken. */
    static final long UNPROVEN = Long.MAX_VALUE;

    /** How a record's sequence compares with what the host saw. */
    public enum Verdict {
        /** At or above the app's mark (or the floor): it may be used. */
        TAKEN,
        /** Below the app's own mark: an older record, refused and deleted. */
        OLDER,
        /** The app has no mark and the record is below the floor (marks evicted or lost): refused, left in place. */
        UNPROVEN
    }

    private final Path file;
    private final int maxApps;
    private final Logger log;
    /** Guarded by {@code this}, as {@link #floor}. */
    private final Map<String, Long> marks = new HashMap<>();
    private long floor;

    /**
     * @param file    the marks file (its folder is created when first written); read now
     * @param maxApps apps with a mark of their own, at most
     */
    public LiveMarks(Path file, int maxApps, Logger log) {
        this.file = file.toAbsolutePath().normalize();
        this.maxApps = maxApps;
        this.log = log;
        load();
    }

    public Path file() {
        return file;
    }

    /** How {@code sequence} of a record of {@code app} compares with what this host saw. */
    public synchronized Verdict judge(String app, long sequence) {
        Long mark = marks.get(app);
        if (mark != null) {
            return sequence < mark ? Verdict.OLDER : Verdict.TAKEN;
        }
        return sequence < floor ? Verdict.UNPROVEN : Verdict.TAKEN;
    }

    /** Raises the app's mark to {@code sequence} (never lowers it) and writes the file when it rose. */
    public synchronized void raise(String app, long sequence) {
        Long mark = marks.get(app);
        if (mark != null && mark >= sequence) {
            return;
        }
        marks.put(app, sequence);
        if (marks.size() > maxApps) {
            evictLowest();
        }
        write();
    }

    /**
     * The control plane's live clock stood at {@code clock} (a tombstone it answered just now):
     * every record newer than that was signed later, so an unproven floor can come down to just
     * above it. Any other floor stays.
     */
    public synchronized void clockSeen(long clock) {
        if (floor == UNPROVEN && clock < UNPROVEN - 1) {
            floor = clock + 1;
            log.log(Level.INFO, "Live records of apps this host has no mark for count again from live-clock {0} on"
                    + " (the control plane''s clock)", Long.toString(floor));
            write();
        }
    }

    private void evictLowest() {
        Map.Entry<String, Long> lowest = null;
        for (Map.Entry<String, Long> entry : marks.entrySet()) {
            if (lowest == null || entry.getValue() < lowest.getValue()) {
                lowest = entry;
            }
        }
        marks.remove(lowest.getKey());
        floor = Math.max(floor, lowest.getValue());
    }

    private void write() {
        JsonObjectBuilder byApp = Json.createObjectBuilder();
        new TreeMap<>(marks).forEach((app, mark) -> byApp.add(app, mark.longValue()));
        byte[] json = Json.createObjectBuilder().add("format", FORMAT).add("floor", floor).add("marks", byApp)
                .build().toString().getBytes(StandardCharsets.UTF_8);
        try {
            KeptFile.write(file, json);
        } catch (IOException e) {
            log.log(Level.WARNING, "Could not write the live-record marks {0}: {1}; they hold in memory until the next write",
                    new Object[] {file, e.toString()});
        }
    }

    private synchronized void load() {
        byte[] bytes;
        try (InputStream in = Files.newInputStream(file)) {
            bytes = in.readNBytes(MAX_FILE_BYTES + 1);
        } catch (NoSuchFileException e) {
            return; // a host that never saw a record
        } catch (IOException e) {
            refuse(e.toString());
            return;
        }
        try (JsonReader reader = Json.createReader(new ByteArrayInputStream(bytes))) {
            if (bytes.length > MAX_FILE_BYTES) {
                throw new IllegalStateException("over " + MAX_FILE_BYTES + " bytes");
            }
            JsonObject json = reader.readObject();
            if (!FORMAT.equals(json.getString("format", null))) {
                throw new IllegalStateException("not " + FORMAT);
            }
            long readFloor = json.getJsonNumber("floor").longValueExact();
            Map<String, Long> read = new HashMap<>();
            for (Map.Entry<String, JsonValue> entry : json.getJsonObject("marks").entrySet()) {
                long mark = ((JsonNumber) entry.getValue()).longValueExact();
                if (!AppLabel.valid(entry.getKey()) || mark < 0) {
                    throw new IllegalStateException("not a mark: " + entry.getKey().replaceAll("\\p{Cntrl}", "?"));
                }
                read.put(entry.getKey(), mark);
            }
            if (readFloor < 0) {
                throw new IllegalStateException("a negative floor");
            }
            marks.putAll(read);
            floor = readFloor;
            while (marks.size() > maxApps) {
                evictLowest();
            }
        } catch (RuntimeException e) {
            refuse(e.toString());
        }
    }

    /** The file cannot be trusted: set aside, and every app without a mark unproven from now on (written at once). */
    private void refuse(String why) {
        marks.clear();
        floor = UNPROVEN;
        log.log(Level.WARNING, "Refused the live-record marks {0}: {1}; {2}; no data-centre live record is taken during an"
                + " outage until the control plane answers for its app", new Object[] {file, why, KeptFile.setAsideSaying(file)});
        write();
    }
}
