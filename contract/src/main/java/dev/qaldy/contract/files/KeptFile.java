package dev.qaldy.contract.files;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.UUID;

/**
 * A file of state the gate or the runtime host keeps across restarts (cap usage, shield counters,
 * learned settings, app → account): written whole to a temporary file of its own in the same
 * folder, forced to disk, moved over the old one atomically and the folder synced, so a reader
 * finds the old file or the new one, never a part (a crash leaves at most a {@code .*.tmp} file,
 * which {@link #isLeftover} names for the next start's clean-up). A file that cannot be read is
 * {@link #setAside set aside} as {@code <name>.refused}, never read again nor overwritten by a
 * later one of the same name, so it can be looked at.
 */
public final class KeptFile {

    /** What a set-aside file's name ends with. */
    public static final String REFUSED = ".refused";

    private KeptFile() {
    }

    /** Writes {@code bytes} to {@code target} atomically (see the class); creates its folder if needed. */
    public static void write(Path target, byte[] bytes) throws IOException {
        Path dir = target.toAbsolutePath().getParent();
        Files.createDirectories(dir);
        Path temp = dir.resolve("." + target.getFileName() + "." + UUID.randomUUID() + ".tmp");
        try {
            try (FileChannel channel = FileChannel.open(temp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
                ByteBuffer buffer = ByteBuffer.wrap(bytes);
                while (buffer.hasRemaining()) {
                    channel.write(buffer);
                }
                channel.force(true);
            }
            Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } finally {
            Files.deleteIfExists(temp);
        }
        syncDirectory(dir);
    }

    /**
     * Moves {@code file} aside to {@code <name>.refused} (replacing an older one), so the state it
     * held is never read again; if it cannot be moved, deletes it.
     *
     * @return where it is now, or empty when it had to be deleted
     * @throws IOException when it can be neither moved nor deleted (the caller must then not trust it)
     */
    public static java.util.Optional<Path> setAside(Path file) throws IOException {
        Path aside = file.resolveSibling(file.getFileName() + REFUSED);
        try {
            Files.move(file, aside, StandardCopyOption.REPLACE_EXISTING);
            return java.util.Optional.of(aside);
        } catch (IOException cannotMove) {
            Files.deleteIfExists(file);
            return java.util.Optional.empty();
        }
    }

    /**
     * {@link #setAside} for a log line: "set aside as NAME.refused", "deleted" (it could not be
     * moved) or "neither set aside nor deleted (why)"; never throws.
     */
    public static String setAsideSaying(Path file) {
        try {
            return setAside(file).map(aside -> "set aside as " + aside.getFileName()).orElse("deleted");
        } catch (IOException e) {
            return "neither set aside nor deleted (" + e + ")";
        }
    }

    /** True for a temporary file {@link #write} leaves when the process dies in the middle. */
    public static boolean isLeftover(Path file) {
        String name = file.getFileName().toString();
        return name.startsWith(".") && name.endsWith(".tmp");
    }

    private static void syncDirectory(Path dir) {
        try (FileChannel channel = FileChannel.open(dir, StandardOpenOption.READ)) {
            channel.force(true);
        } catch (IOException | UnsupportedOperationException e) {
            // Not every file system lets a directory be synced; the move itself is atomic.
        }
    }
}
