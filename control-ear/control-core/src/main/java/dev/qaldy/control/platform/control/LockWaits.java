package dev.qaldy.control.platform.control;

import jakarta.persistence.LockTimeoutException;
import jakarta.persistence.PessimisticLockException;
import java.sql.SQLException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Tells a lock wait that ran out (another transaction held a row longer than the database's lock
 * timeout) from other failures, for the API's 503 "busy" and a log line that names the lock.
 */
public final class LockWaits {

    /** H2's error code for "Timeout trying to lock table" (SQLState HYT00). */
    static final int H2_LOCK_TIMEOUT = 50200;
    /** H2's and PostgreSQL's SQLState for a deadlock or a serialization failure. */
    static final String DEADLOCK_STATE = "40001";
    /** PostgreSQL's SQLState for {@code lock_timeout} and {@code NOWAIT}. */
    static final String LOCK_NOT_AVAILABLE_STATE = "55P03";

    private static final Pattern TABLE = Pattern.compile("lock table \"?(?:[A-Z0-9_]+\\.)?([A-Za-z0-9_]+)\"?");

    private LockWaits() {
    }

    /**
     * Whether a lock wait that ran out (or a deadlock the database broke) is behind {@code thrown}:
     * JPA's lock exceptions, H2's 50200, SQLState 40001 or 55P03. A statement cancelled by a query
     * timeout is not one. Looks at most 30 causes deep.
     */
    public static boolean ranOut(Throwable thrown) {
        return sqlCause(thrown) != null || jpaLockCause(thrown) != null;
    }

    /** The table whose lock could not be taken, as the database named it (e.g. {@code BILLING_CLOCK}), or null. */
    public static String table(Throwable thrown) {
        SQLException sql = sqlCause(thrown);
        if (sql == null || sql.getMessage() == null) {
            return null;
        }
        Matcher matcher = TABLE.matcher(sql.getMessage());
        return matcher.find() ? matcher.group(1) : null;
    }

    private static SQLException sqlCause(Throwable thrown) {
        Throwable current = thrown;
        for (int depth = 0; current != null && depth < 30; depth++) {
            if (current instanceof SQLException sql && (sql.getErrorCode() == H2_LOCK_TIMEOUT
                    || DEADLOCK_STATE.equals(sql.getSQLState()) || LOCK_NOT_AVAILABLE_STATE.equals(sql.getSQLState()))) {
                return sql;
            }
            current = current.getCause() == current ? null : current.getCause();
        }
        return null;
    }

    private static Throwable jpaLockCause(Throwable thrown) {
        Throwable current = thrown;
        for (int depth = 0; current != null && depth < 30; depth++) {
            if (current instanceof LockTimeoutException || current instanceof PessimisticLockException) {
                return current;
            }
            current = current.getCause() == current ? null : current.getCause();
        }
        return null;
    }
}
