package dev.qaldy.cell;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;

/**
 * Who has the machine: failsafe runs two test classes at once (two forks, a cell each), and a test
 * that measures what one person waits (the soak's "everything works again within 60 s") cannot
 * share 2 cores with another cell starting five JVMs (CI: a control-plane restart took 90 s instead
 * of 14 s, the first sign-in after a hang 21 s instead of 3 s). Every cell holds a shared lock on one
 * file under {@code cell-tests/target/cells/} while it runs; a test that needs the machine to itself
 * takes the lock exclusively, so it waits until the other fork's cell is gone, and the other fork's
 * next cell waits until it is done. Locks are the operating system's (fcntl), so they are released
 * when a fork dies. Within one JVM the first holder takes the lock and later ones count.
 *
 * <p>A test that wants the machine alone would starve behind a fork that runs its classes back to
 * back (the next cell takes its share milliseconds after the last one let go; CI waited 30 min and
 * failed). So a second file is a turnstile: a cell passes it (shared) before taking its share, and a
 * test that wants the machine alone holds it exclusively while it waits, so the cells running now
 * finish and no new one starts until it has the machine.
 */
final class MachineShare {

    /** How long a cell waits for the machine before its test fails (a fork that never gives it back). */
    static final Duration MAX_WAIT = Duration.ofMinutes(30);

    private static FileChannel channel;
    private static FileLock lock;
    private static Path folder;
    private static int holders;

    private MachineShare() {
    }

    /** Holds the machine beside other cells (a shared lock); waits while a test has it alone. */
    static synchronized void share(Path cells) {
        hold(cells, true);
    }

    /**
     * Turns this JVM's shared hold into holding the machine alone, waiting until no other fork's
     * cell runs: for a test whose cell may start beside others (its start judges nothing) but whose
     * run judges what one person waits. Nothing when the hold is exclusive already.
     *
     * @throws IllegalStateException when this JVM holds no share (start the cell first), or after {@link #MAX_WAIT}
     */
    static synchronized void aloneFromNow() {
        if (holders == 0) {
            throw new IllegalStateException("start the cell (a shared hold) before taking the machine alone");
        }
        if (!lock.isShared()) {
            return;
        }
        try (FileChannel turnstile = turnstile(); FileLock closed = await(turnstile, false)) {
            lock.release();
            lock = null;
            try {
                lock = await(channel, false);
            } finally {
                if (lock == null) {
                    lock = channel.lock(0, Long.MAX_VALUE, true); // back to the share this JVM had
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Turns this JVM's hold of the machine alone into a shared one, for a test that no longer
     * judges what one person waits: other forks' cells start beside it from now on. Nothing when
     * the hold is shared already or there is none.
     */
    static synchronized void shareFromNow() {
        if (holders == 0 || lock.isShared()) {
            return;
        }
        try {
            lock.release();
            lock = channel.lock(0, Long.MAX_VALUE, true); // at once: only a test alone holds it exclusively, and that was this one
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Gives back one hold; the lock goes with the last. */
    static synchronized void release() {
        if (holders == 0) {
            return;
        }
        if (--holders == 0) {
            try {
                lock.release();
                channel.close();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            } finally {
                lock = null;
                channel = null;
            }
        }
    }

    private static void hold(Path cells, boolean shared) {
        if (holders > 0) {
            holders++;
            return;
        }
        try {
            Files.createDirectories(cells);
            folder = cells;
            channel = open(cells.resolve(".machine.lock"));
            try (FileChannel turnstile = turnstile(); FileLock passing = await(turnstile, true)) {
                lock = await(channel, shared);
            } catch (IOException | RuntimeException e) {
                channel.close();
                channel = null;
                throw e;
            }
            holders = 1;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static FileChannel turnstile() throws IOException {
        return open(folder.resolve(".machine.turnstile"));
    }

    private static FileChannel open(Path file) throws IOException {
        return FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE, StandardOpenOption.READ);
    }

    /** Takes the lock on an open channel, waiting at most {@link #MAX_WAIT}. */
    private static FileLock await(FileChannel channel, boolean shared) throws IOException {
        long started = System.nanoTime();
        long deadline = started + MAX_WAIT.toNanos();
        boolean said = false;
        FileLock got;
        try {
            while ((got = channel.tryLock(0, Long.MAX_VALUE, shared)) == null) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("another test held the machine for over " + MAX_WAIT.toMinutes() + " min");
                }
                if (!said) {
                    said = true;
                    System.err.println("[cell] waiting for the machine: " + (shared ? "a test runs alone or waits for it" : "another fork's cell runs"));
                }
                Thread.sleep(500);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for the machine", e);
        }
        if (said) {
            System.err.println("[cell] got the machine after " + (System.nanoTime() - started) / 1_000_000_000 + " s");
        }
        return got;
    }
}
