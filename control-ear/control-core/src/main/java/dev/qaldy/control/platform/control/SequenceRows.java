package dev.qaldy.control.platform.control;

import dev.qaldy.control.platform.entity.SequenceRow;
import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedExecutorService;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.LockModeType;
import jakarta.persistence.PersistenceContext;
import jakarta.persistence.Table;
import jakarta.transaction.Transactional;
import jakarta.transaction.Transactional.TxType;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The one-row sequence tables ({@link SequenceRow}: billing, shield settings, sharing changes):
 * locks a row for the rest of the caller's transaction, creating it the first time it is needed,
 * so sequences taken from it commit in the order they are taken.
 *
 * <p>A lock wait is bounded by the database's lock timeout (H2's {@code LOCK_TIMEOUT}, 2 s, set in
 * the data source's URL); one that runs out is logged naming the row and answered 503
 * ({@link LockBusy}), never a 500. The row is created in a transaction of its own on the managed
 * executor, never in a transaction nested in the caller's: Payara's {@code REQUIRES_NEW}
 * interceptor resumes the suspended transaction only when the new one ends without an exception,
 * so a nested creation whose commit or rollback failed would leave the caller's transaction open
 * for good, with its connection out of the pool (issue 14).
 */
@ApplicationScoped
public class SequenceRows {

    /** Longest wait for the row's creation on the executor, in ms. */
    static final long CREATE_WAIT_MS = 5_000;
    /** How often the holders of a row are logged while lock waits run out, in ms. */
    static final long HOLDERS_LOG_INTERVAL_MS = 30_000;
    /** A connection out of the pool longer than this (the lock timeout) is listed as a possible holder. */
    static final Duration HELD_OVER = Duration.ofSeconds(2);

    private final AtomicLong holdersLogged = new AtomicLong();

    @PersistenceContext(unitName = "qaldy")
    EntityManager em;

    @Inject
    SequenceRowCreator creator;

    @Resource
    ManagedExecutorService executor;

    @Inject
    Logger log;

    @Inject
    Clock clock;

    /**
     * Locks the row of {@code type} (pessimistic write) until the caller's transaction ends; take
     * sequences from it with {@link SequenceRow#next()}.
     *
     * @throws LockBusy when another transaction held the row for longer than the lock timeout
     * @throws IllegalStateException when the row can be neither found nor created
     * @throws jakarta.persistence.PersistenceException when the database cannot be reached
     */
    @Transactional(TxType.MANDATORY)
    public <T extends SequenceRow> T lock(Class<T> type) {
        T row = locked(type);
        if (row == null) {
            createApart(type);
            row = locked(type);
            if (row == null) {
                throw new IllegalStateException("the " + table(type) + " row cannot be created");
            }
        }
        return row;
    }

    /** Locks the row of {@code type} and takes its next sequence (the first is 1). */
    @Transactional(TxType.MANDATORY)
    public long next(Class<? extends SequenceRow> type) {
        return lock(type).next();
    }

    /** The last committed sequence of {@code type}, without a lock; 0 before any. */
    @Transactional(TxType.SUPPORTS)
    public long last(Class<? extends SequenceRow> type) {
        SequenceRow row = em.find(type, SequenceRow.ID);
        return row == null ? 0 : row.last();
    }

    /** The table of {@code type}'s row, e.g. {@code BILLING_CLOCK}. */
    public static String table(Class<? extends SequenceRow> type) {
        Table table = type.getAnnotation(Table.class);
        return table == null || table.name().isEmpty() ? type.getSimpleName() : table.name();
    }

    private <T extends SequenceRow> T locked(Class<T> type) {
        try {
            return em.find(type, SequenceRow.ID, LockModeType.PESSIMISTIC_WRITE);
        } catch (RuntimeException e) {
            if (!LockWaits.ranOut(e)) {
                throw e;
            }
            log.log(Level.WARNING, "lock wait on the {0} row ran out: another transaction holds it ({1})",
                    new Object[] {table(type), firstLine(e)});
            nameTheHolders(table(type));
            throw new LockBusy("the " + table(type) + " row");
        }
    }

    /**
     * At most every {@link #HOLDERS_LOG_INTERVAL_MS} ms: the connections out of the pool for longer
     * than the lock timeout (one of them holds the row) and the threads in Qaldy's code now, so a row
     * that stays held says who took it (issue 14, finding 1).
     */
    private void nameTheHolders(String table) {
        long now = clock.millis();
        long last = holdersLogged.get();
        if (now - last < HOLDERS_LOG_INTERVAL_MS || !holdersLogged.compareAndSet(last, now)) {
            return;
        }
        log.log(Level.WARNING, "the {0} row is held; connections out of the pool for over {1} s: {2}; this process''s threads"
                + " in Qaldy''s code now:\n{3}", new Object[] {table, HELD_OVER.toSeconds(), GivenBackConnections.heldLongerThan(HELD_OVER),
                OwnThreads.dump(20, 12)});
    }

    /** Creates the row on the executor (a thread with no transaction to suspend) and waits for it, bounded. */
    private void createApart(Class<? extends SequenceRow> type) {
        try {
            executor.submit(() -> creator.create(type)).get(CREATE_WAIT_MS, TimeUnit.MILLISECONDS);
        } catch (ExecutionException raced) {
            log.log(Level.FINE, "the {0} row was not created here (another transaction created it first?): {1}",
                    new Object[] {table(type), raced.getCause()});
        } catch (TimeoutException e) {
            throw new LockBusy("the " + table(type) + " row (being created)");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new LockBusy("the " + table(type) + " row (being created)");
        }
    }

    private static String firstLine(Throwable thrown) {
        Throwable root = thrown;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        String line = String.valueOf(root.getMessage()).lines().findFirst().orElse("");
        return line.endsWith("; SQL statement:") ? line.substring(0, line.length() - "; SQL statement:".length()) : line;
    }
}
