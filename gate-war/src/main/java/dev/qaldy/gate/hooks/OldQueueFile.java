package dev.qaldy.gate.hooks;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.h2.mvstore.MVMap;
import org.h2.mvstore.MVStore;

/**
 * The queue file of gates before 2026-12-05 (H2 MVStore, {@code webhook-queue.mv.db}): what it still
 * holds is moved into the {@link EdgeQueue} once, in order, and the file set aside as
 * {@code webhook-queue.mv.db.moved}, so a gate upgraded with deliveries waiting hands them over.
 * A file MVStore cannot open is set aside as {@code .unreadable} with a SEVERE line (what it held is
 * not known, so not claimed as lost or kept).
 */
final class OldQueueFile {

    private OldQueueFile() {
    }

    static void moveInto(Path old, EdgeQueue queue, Logger log) {
        if (!Files.exists(old)) {
            return;
        }
        int moved = 0;
        int unreadable = 0;
        try {
            MVStore store = new MVStore.Builder().fileName(old.toString()).readOnly().open();
            try {
                MVMap<Long, byte[]> deliveries = store.openMap("deliveries");
                for (byte[] record : deliveries.values()) {
                    try {
                        if (queue.append(QueuedDelivery.decode(record)) instanceof EdgeQueue.Queued) {
                            moved++;
                        }
                    } catch (IOException | RuntimeException bad) {
                        unreadable++;
                    }
                }
            } finally {
                store.close();
            }
            setAside(old, ".moved");
            log.log(Level.INFO, "gate: webhook queue: {0} deliveries moved from {1} ({2} unreadable records dropped; any other was a duplicate or over the queue''s bounds); the file is set aside",
                    new Object[] {moved, old, unreadable});
        } catch (RuntimeException | IOException e) {
            log.log(Level.SEVERE, "gate: webhook queue: the queue file of an earlier gate, " + old + ", cannot be read ("
                    + e + "); it is set aside as .unreadable, and deliveries it held are not handed over", e);
            try {
                setAside(old, ".unreadable");
            } catch (IOException again) {
                log.log(Level.SEVERE, "gate: webhook queue: cannot set {0} aside: {1}", new Object[] {old, again.toString()});
            }
        }
    }

    private static void setAside(Path old, String suffix) throws IOException {
        Files.move(old, old.resolveSibling(old.getFileName() + suffix), StandardCopyOption.REPLACE_EXISTING);
    }
}
