package dev.qaldy.status.platform;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;

/** Folders and files only their owner can read: the status page's database folder and password file. */
public final class OwnerOnly {

    private static final boolean POSIX = FileSystems.getDefault().supportedFileAttributeViews().contains("posix");

    private OwnerOnly() {
    }

    /** Creates {@code dir} and missing parents; the folders it creates are {@code rwx------}. */
    public static void createDirectories(Path dir) {
        try {
            if (Files.isDirectory(dir)) {
                return;
            }
            if (POSIX) {
                Files.createDirectories(dir, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
            } else {
                Files.createDirectories(dir);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create the folder " + dir, e);
        }
    }

    /**
     * Writes {@code text} to a new file {@code file} that is {@code rw-------} from the moment it
     * exists (never world-readable, not even briefly).
     *
     * @throws UncheckedIOException when the file exists already or cannot be written
     */
    public static void writeNew(Path file, String text) {
        try {
            Path parent = file.toAbsolutePath().getParent();
            if (parent != null) {
                createDirectories(parent);
            }
            FileAttribute<?>[] attributes = POSIX
                    ? new FileAttribute<?>[] {PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------"))}
                    : new FileAttribute<?>[0];
            Files.createFile(file, attributes);
            Files.writeString(file, text, StandardCharsets.UTF_8, StandardOpenOption.TRUNCATE_EXISTING);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        }
    }

    /** True when others than the owner may read or write {@code file} (always false off POSIX). */
    public static boolean readableByOthers(Path file) {
        if (!POSIX) {
            return false;
        }
        try {
            Set<PosixFilePermission> permissions = Files.getPosixFilePermissions(file);
            return permissions.contains(PosixFilePermission.GROUP_READ) || permissions.contains(PosixFilePermission.OTHERS_READ)
                    || permissions.contains(PosixFilePermission.GROUP_WRITE) || permissions.contains(PosixFilePermission.OTHERS_WRITE);
        } catch (IOException e) {
            return false;
        }
    }
}
