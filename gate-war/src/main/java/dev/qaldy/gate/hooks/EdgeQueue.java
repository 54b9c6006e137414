package dev.qaldy.gate.hooks;

import dev.qaldy.contract.hooks.HookSignature;
import java.io.IOException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.h2.mvstore.MVMap;
import org.h2.mvstore.MVStore;

/**
 * The gate's durable queue of checked webhook deliveries (issue 17), in one H2 MVStore file
 * ({@code webhook-queue.mv.db}, the gate's user only). An append is committed and forced to disk
 * ({@code fsync}) before it returns, so a 202 is never lost to a crash; MVStore checks each chunk
 * when it opens the file, so a chunk torn by a crash is dropped with what it held (none of it was
 * answered 202). Keys are the order of receipt; the hand-over goes through them in that order.
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

    /** A queued delivery with its place. */
    public record Entry(long position, QueuedDelivery delivery) {
    }

    private record Indexed(String deliveryId, String bodySha256) {
    }

    static final String FILE = "webhook-queue.mv.db";
    private static final boolean POSIX = FileSystems.getDefault().supportedFileAttributeViews().contains("posix");

    private final MVStore store;
    private final MVMap<Long, byte[]> deliveries;
    private final Limits limits;
    private final Logger log;
    private final Map<String, long[]> perApp = new HashMap<>();
    private final Map<String, Indexed> byKey = new HashMap<>();
    private final Map<String, String> bySignature = new HashMap<>();
    private final Map<Long, QueuedDelivery> held = new HashMap<>();
    private long count;
    private long bytes;

    /** Opens (or makes) the queue in {@code dir}; records it cannot read are dropped with a warning. */
    public EdgeQueue(Path dir, Limits limits, Logger log) throws IOException {
        this.limits = limits;
        this.log = log;
        Path file = dir.resolve(FILE);
        ownerOnly(dir);
        store = new MVStore.Builder().fileName(file.toString()).autoCommitDisabled().open();
        if (POSIX) {
            Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------")); // its folder is the owner's only already
        }
        deliveries = store.openMap("deliveries");
        List<Long> unreadable = new ArrayList<>();
        for (Map.Entry<Long, byte[]> e : deliveries.entrySet()) {
            try {
                index(e.getKey(), QueuedDelivery.decode(e.getValue()));
            } catch (IOException | RuntimeException bad) {
                unreadable.add(e.getKey());
            }
        }
        if (!unreadable.isEmpty()) {
            unreadable.forEach(deliveries::remove);
            durable();
            log.log(Level.WARNING, "gate: webhook queue: {0} records that are not whole deliveries were dropped", unreadable.size());
        }
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
        Long last = deliveries.lastKey();
        long position = last == null ? 1 : last + 1;
        deliveries.put(position, delivery.encode());
        durable();
        index(position, delivery);
        return new Queued(delivery.deliveryId(), false);
    }

    /** Up to {@code max} queued deliveries, oldest first. */
    public synchronized List<Entry> head(int max) {
        List<Entry> out = new ArrayList<>();
        for (Long position : deliveries.keySet()) {
            if (out.size() >= max) {
                break;
            }
            out.add(new Entry(position, held.get(position)));
        }
        return out;
    }

    /** Gone from the queue, on disk, before it returns. */
    public synchronized void remove(long position) {
        QueuedDelivery delivery = held.remove(position);
        if (delivery == null) {
            return;
        }
        deliveries.remove(position);
        durable();
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

    public synchronized long count() {
        return count;
    }

    @Override
    public synchronized void close() {
        store.close();
    }

    private void durable() {
        store.commit();
        store.sync(); // MVStore's commit writes the chunk; sync forces it (FileChannel.force)
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
