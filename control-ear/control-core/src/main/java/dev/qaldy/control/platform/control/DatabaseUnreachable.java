package dev.qaldy.control.platform.control;

import jakarta.resource.spi.ResourceAllocationException;
import java.net.ConnectException;
import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.SQLTransientConnectionException;

/** Tells a lost or unreachable database from other failures, for the API's 503 and a start without the database. */
public final class DatabaseUnreachable {

    /** H2's SQLState for a broken connection to its TCP server. */
    static final String H2_CONNECTION_BROKEN = "90067";

    private DatabaseUnreachable() {
    }

    /**
     * Whether a lost database connection is behind {@code thrown}: a connection exception of JDBC
     * (or SQLState class 08, or H2's 90067 "connection broken", which Open Liberty passes on as a
     * plain {@code SQLNonTransientException}), a refused socket, or a pool that cannot allocate a
     * connection. Looks at most 30 causes deep.
     */
    public static boolean behind(Throwable thrown) {
        Throwable current = thrown;
        for (int depth = 0; current != null && depth < 30; depth++) {
            if (current instanceof SQLNonTransientConnectionException || current instanceof SQLTransientConnectionException
                    || current instanceof ResourceAllocationException
                    || current instanceof ConnectException
                    || (current instanceof SQLException sql && sql.getSQLState() != null
                            && (sql.getSQLState().startsWith("08") || H2_CONNECTION_BROKEN.equals(sql.getSQLState())))) {
                return true;
            }
            current = current.getCause();
        }
        return false;
    }
}
