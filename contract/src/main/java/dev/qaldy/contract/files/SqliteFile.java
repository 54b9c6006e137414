package dev.qaldy.contract.files;

import java.io.IOException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.SQLException;
import org.sqlite.SQLiteConfig;
import org.sqlite.SQLiteDataSource;
import org.sqlite.core.NativeDB;

/**
 * Opens one of the edge's SQLite stores (the gate's webhook queue, the runtime host's data replica):
 * a write-ahead log, a 2 s busy timeout, and the file (and a folder it makes) readable by the process's user only (SQLite gives
 * its {@code -wal} and {@code -shm} files the database file's mode, so the file is made owner-only
 * before it opens it). The caller brings the driver (xerial's sqlite-jdbc), whose native library is
 * extracted into {@code org.sqlite.tmpdir} (bin/qaldy gives each component a folder of its own).
 */
public final class SqliteFile {

    private static final boolean POSIX = FileSystems.getDefault().supportedFileAttributeViews().contains("posix");

    private SqliteFile() {
    }

    /**
     * @param forcedToDisk true: each commit fsyncs the log before it returns ({@code synchronous=FULL}, for
     *                     what was acknowledged to someone); false: {@code NORMAL} (a crash may lose the last
     *                     commits, never corrupt the file; for what can be fetched again)
     * @throws IOException when the folder or the file cannot be made, or the database cannot be opened
     */
    public static Connection open(Path file, boolean forcedToDisk) throws IOException {
        nativeLibraryLoaded();
        Path dir = file.toAbsolutePath().getParent();
        if (POSIX && !Files.isDirectory(dir)) {
            Files.createDirectories(dir, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        } else {
            Files.createDirectories(dir);
        }
        if (POSIX && !Files.exists(file)) {
            Files.createFile(file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        }
        SQLiteConfig config = new SQLiteConfig();
        config.setJournalMode(SQLiteConfig.JournalMode.WAL);
        config.setSynchronous(forcedToDisk ? SQLiteConfig.SynchronousMode.FULL : SQLiteConfig.SynchronousMode.NORMAL);
        config.setBusyTimeout(2_000);
        SQLiteDataSource source = new SQLiteDataSource(config);
        source.setUrl("jdbc:sqlite:" + file);
        try {
            return source.getConnection();
        } catch (SQLException e) {
            throw new IOException(file + " cannot be opened: " + e.getMessage(), e);
        }
    }

    /*
     * sqlite-jdbc loads its native library at the first connection and, when that fails, keeps only that
     * it failed: every later connection then dies on an UnsatisfiedLinkError (an Error, past every
     * handler) that hides why. Loading it first turns both into an IOException that says why (once, the
     * first time) or that it failed before.
     */
    private static void nativeLibraryLoaded() throws IOException {
        boolean loaded;
        try {
            loaded = NativeDB.load();
        } catch (Exception e) {
            throw new IOException("SQLite's native library could not be loaded from "
                    + System.getProperty("org.sqlite.tmpdir", System.getProperty("java.io.tmpdir")) + ": " + e, e);
        }
        if (!loaded) {
            throw new IOException("SQLite's native library failed to load earlier in this process (the first"
                    + " failure was reported then); restart the process");
        }
    }
}
