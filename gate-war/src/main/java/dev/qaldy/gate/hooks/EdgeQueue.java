package dev.qaldy.gate.hooks;

import dev.qaldy.contract.files.SqliteFile;
import dev.qaldy.contract.hooks.HookSignature;
import java.io.IOException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The gate's durable queue of checked webhook deliveries (issue 17), in one SQLite database
 * ({@code webhook-queue.db}, the gate's user only; write-ahead log, {@code synchronous=FULL}). An
 * append is one transaction, committed and forced to disk ({@code fsync} of the log) before it
 * returns, so a 202 is never lost to a crash; a transaction torn by a crash is rolled back when the
 * file opens (none of it was answered 202). Positions are the order of receipt; the hand-over goes
 * through them in that order. (H2's MVStore held it first: after a kill, a later clean stop left a
 * file it could not open again, "Double mark": in EdgeWebhooksIT's cell, and at once in {@code EdgeQueueTest}'s crash images.)
 * Bounded per app and per cell in count and bytes ({@link Limits}). The same delivery queued twice
 * (the same {@code Idempotency-Key}, or the same {@code t} and body) is answered with the first's id.
 */
public final class EdgeQueue implements AutoCloseable {

    /**
     * The queue's bounds.
     *
     * @param appCount most deliveries of one app
     * @param appBytes most bytes of one app ({@link QueuedDelivery#size})
     * @param cellCount most deliveries in all
     * @param cellBytes most bytes in all
     */
    public record Limits(int appCount, long appBytes, int cellCount, long cellBytes) {
    }

    /** What an append did. */
    public sealed interface Appended {
    }

    /** On disk now; {@code replayed} when it was queued before (the same id). */
    public record Queued(String deliveryId, boolean replayed) implements Appended {
    }

    /** A bound is reached: nothing written. */
    public record Full(String why) implements Appended {
    }

    /** The key was queued before with another body. */
    public record KeyConflict() implements Appended {
    }

    /**
     * What waits for one hook.
     *
     * @param count          deliveries queued, not handed over yet
     * @param oldestReceived when the first of them reached this gate
     */
    public record Waiting(String hook, int count, Instant oldestReceived) {
    }

    /** A queued delivery with its place. */
    public record Entry(long position, QueuedDelivery delivery) {
    }

    private record Indexed(String deliveryId, String bodySha256) {
    }

    static final String FILE = "webhook-queue.db";
    /** The MVStore file of gates before 2026-12-05, read once into the database and set aside. */
    static final String OLD_FILE = "webhook-queue.mv.db";
    private static final boolean POSIX = FileSystems.getDefault().supportedFileAttributeViews().contains("posix");

    private final Connection db;
    private final Limits limits;
    private final Logger log;
    private final Map<String, long[]> perApp = new HashMap<>();
    private final Map<String, Indexed> byKey = new HashMap<>();
    private final Map<String, String> bySignature = new HashMap<>();
    private final TreeMap<Long, QueuedDelivery> held = new TreeMap<>();
    private long count;
    private long bytes;

    /**
     * Opens (or makes) the queue in {@code dir}; records it cannot read are dropped with a warning.
     *
     * @throws IOException when the database cannot be opened or read
     */
    public EdgeQueue(Path dir, Limits limits, Logger log) throws IOException {
        this.limits = limits;
        this.log = log;
        ownerOnly(dir);
        Path file = dir.resolve(FILE);
        db = SqliteFile.open(file, true); // each commit fsyncs the log before it returns: a 202 is kept
        try {
            try (Statement s = db.createStatement()) {
                s.execute("CREATE TABLE IF NOT EXISTS DELIVERIES (POSITION INTEGER PRIMARY KEY AUTOINCREMENT, RECORD BLOB NOT NULL)");
            }
            List<Long> unreadable = new ArrayList<>();
            try (Statement s = db.createStatement(); ResultSet rows = s.executeQuery("SELECT POSITION, RECORD FROM DELIVERIES ORDER BY POSITION")) {
                while (rows.next()) {
                    try {
                        index(rows.getLong(1), QueuedDelivery.decode(rows.getBytes(2)));
                    } catch (IOException | RuntimeException bad) {
                        unreadable.add(rows.getLong(1));
                    }
                }
            }
            for (long position : unreadable) {
                delete(position);
            }
            if (!unreadable.isEmpty()) {
                log.log(Level.WARNING, "gate: webhook queue: {0} records that are not whole deliveries were dropped", unreadable.size());
            }
        } catch (SQLException e) {
            close();
            throw new IOException("the webhook queue " + file + " cannot be opened: " + e.getMessage(), e);
        }
        OldQueueFile.moveInto(dir.resolve(OLD_FILE), this, log);
    }

    /** Queued (committed and forced to disk), found queued before, or refused. */
    public synchronized Appended append(QueuedDelivery delivery) {
        String hash = HookSignature.sha256(delivery.body());
        if (delivery.idempotencyKey() != null) {
            Indexed same = byKey.get(keyOf(delivery));
            if (same != null) {
                return same.bodySha256().equals(hash) ? new Queued(same.deliveryId(), true) : new KeyConflict();
            }
        }
        String sameSigned = bySignature.get(signatureOf(delivery, hash));
        if (sameSigned != null) {
            return new Queued(sameSigned, true);
        }
        long[] app = perApp.getOrDefault(delivery.app(), new long[2]);
        long size = delivery.size();
        if (app[0] + 1 > limits.appCount() || app[1] + size > limits.appBytes()) {
            return new Full("the queue holds as many deliveries for " + delivery.app() + " as it may");
        }
        if (count + 1 > limits.cellCount() || bytes + size > limits.cellBytes()) {
            return new Full("the queue holds as many deliveries as it may");
        }
        long position;
        try (PreparedStatement insert = db.prepareStatement("INSERT INTO DELIVERIES (RECORD) VALUES (?)", Statement.RETURN_GENERATED_KEYS)) {
            insert.setBytes(1, delivery.encode());
            insert.executeUpdate();
            try (ResultSet key = insert.getGeneratedKeys()) {
                key.next();
                position = key.getLong(1);
            }
        } catch (SQLException e) {
            throw new IllegalStateException("the webhook queue cannot be written: " + e.getMessage(), e);
        }
        index(position, delivery);
        return new Queued(delivery.deliveryId(), false);
    }

    /** Up to {@code max} queued deliveries, oldest first. */
    public synchronized List<Entry> head(int max) {
        List<Entry> out = new ArrayList<>();
        for (Map.Entry<Long, QueuedDelivery> e : held.entrySet()) {
            if (out.size() >= max) {
                break;
            }
            out.add(new Entry(e.getKey(), e.getValue()));
        }
        return out;
    }

    /** Gone from the queue, on disk, before it returns. */
    public synchronized void remove(long position) {
        QueuedDelivery delivery = held.remove(position);
        if (delivery == null) {
            return;
        }
        try {
            delete(position);
        } catch (SQLException e) {
            held.put(position, delivery);
            throw new IllegalStateException("the webhook queue cannot be written: " + e.getMessage(), e);
        }
        long[] app = perApp.get(delivery.app());
        app[0]--;
        app[1] -= delivery.size();
        if (app[0] == 0) {
            perApp.remove(delivery.app());
        }
        count--;
        bytes -= delivery.size();
        byKey.remove(keyOf(delivery));
        bySignature.remove(signatureOf(delivery, HookSignature.sha256(delivery.body())));
    }

    /** True while a delivery for this hook waits: a new one goes behind it, never past it. */
    public synchronized boolean holds(String app, String hook) {
        return held.values().stream().anyMatch(d -> d.app().equals(app) && d.hook().equals(hook));
    }

    /** What waits for each hook of {@code app}, by hook name. */
    public synchronized List<Waiting> waiting(String app) {
        Map<String, Waiting> byHook = new TreeMap<>();
        for (QueuedDelivery d : held.values()) {
            if (d.app().equals(app)) {
                byHook.merge(d.hook(), new Waiting(d.hook(), 1, d.receivedAt()), (a, b) -> new Waiting(a.hook(), a.count() + 1,
                        a.oldestReceived().isBefore(b.oldestReceived()) ? a.oldestReceived() : b.oldestReceived()));
            }
        }
        return List.copyOf(byHook.values());
    }

    public synchronized long count() {
        return count;
    }

    @Override
    public synchronized void close() {
        try {
            if (db != null) {
                db.close();
            }
        } catch (SQLException e) {
            log.log(Level.WARNING, "gate: webhook queue: closing it: {0}", e.toString());
        }
    }

    private void delete(long position) throws SQLException {
        try (PreparedStatement delete = db.prepareStatement("DELETE FROM DELIVERIES WHERE POSITION = ?")) {
            delete.setLong(1, position);
            delete.executeUpdate();
        }
    }

    private void index(long position, QueuedDelivery delivery) {
        held.put(position, delivery);
        long[] app = perApp.computeIfAbsent(delivery.app(), a -> new long[2]);
        app[0]++;
        app[1] += delivery.size();
        count++;
        bytes += delivery.size();
        String hash = HookSignature.sha256(delivery.body());
        if (delivery.idempotencyKey() != null) {
            byKey.putIfAbsent(keyOf(delivery), new Indexed(delivery.deliveryId(), hash));
        }
        bySignature.putIfAbsent(signatureOf(delivery, hash), delivery.deliveryId());
    }

    private static String keyOf(QueuedDelivery d) {
        return d.app() + "/" + d.hook() + "/k/" + d.idempotencyKey();
    }

    private static String signatureOf(QueuedDelivery d, String bodySha256) {
        return d.app() + "/" + d.hook() + "/t/" + HookSignature.timestamp(d.signature()) + "/" + bodySha256;
    }

    private static void ownerOnly(Path dir) throws IOException {
        if (Files.isDirectory(dir)) {
            return;
        }
        if (POSIX) {
            Files.createDirectories(dir, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        } else {
            Files.createDirectories(dir);
        }
    }
}
