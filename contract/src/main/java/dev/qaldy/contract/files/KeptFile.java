package dev.qaldy.contract.files;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.FileSystems;
import java.nio.file.OpenOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;
import java.util.UUID;

/**
 * A file of state the edge keeps across restarts, written atomically: a temporary file in the same
 * folder, forced, moved over the old one, the folder synced; a crash leaves at most a
 * {@code .*.tmp} file ({@link #isLeftover}). An unreadable file is {@link #setAside set aside} as
 * {@code <name>.refused}, never read again.
 */
public final class KeptFile {

    public static final String REFUSED = ".refused";
    private static final boolean POSIX = FileSystems.getDefault().supportedFileAttributeViews().contains("posix");

    private KeptFile() {
    }

    /** Creates the folder if needed. */
    public static void write(Path target, byte[] bytes) throws IOException {
        write(target, bytes, false);
    }

    /**
     * As {@link #write}, the file readable by its owner only ({@code rw-------} from the moment it
     * exists, where the file system has POSIX permissions): for state that holds secrets.
     */
    public static void writeOwnerOnly(Path target, byte[] bytes) throws IOException {
        write(target, bytes, true);
    }

    private static void write(Path target, byte[] bytes, boolean ownerOnly) throws IOException {
        Path dir = target.toAbsolutePath().getParent();
        Files.createDirectories(dir);
        Path temp = dir.resolve("." + target.getFileName() + "." + UUID.randomUUID() + ".tmp");
        Set<OpenOption> options = Set.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
        FileAttribute<?>[] attributes = ownerOnly && POSIX
                ? new FileAttribute<?>[] {PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------"))}
                : new FileAttribute<?>[0];
        try {
            try (FileChannel channel = FileChannel.open(temp, options, attributes)) {
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
     * Moves {@code file} to {@code <name>.refused} (replacing an older one), else deletes it.
     *
     * @return where it is now, or empty when it was deleted
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

    /** {@link #setAside} as words for a log line; never throws. */
    public static String setAsideSaying(Path file) {
        try {
            return setAside(file).map(aside -> "set aside as " + aside.getFileName()).orElse("deleted");
        } catch (IOException e) {
            return "neither set aside nor deleted (" + e + ")";
        }
    }

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
