package dev.qaldy.control.platform.control;

import java.io.PrintWriter;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.Statement;
import java.time.Duration;
import java.util.logging.Logger;
import javax.sql.DataSource;

/**
 * The control plane's H2 data source as Flyway sees it: each connection waits up to
 * {@link #WAIT} for a lock, and gets its own lock timeout back when Flyway closes it (the pool then
 * hands it to requests, which must keep the cell's short one, {@code LOCK_TIMEOUT=2000}).
 * <p>
 * Why: on H2 Flyway's lock on its history table is a {@code SELECT … FOR UPDATE}, bounded only by
 * the session's lock timeout, and Flyway does not retry it. Two control planes starting together
 * on one database (the clean-clone run of c3f85ef) found the other's migration holding it over 2 s:
 * "Unable to lock table FLYWAY_SCHEMA_HISTORY", the persistence unit failed, and the control plane
 * never deployed. Waiting for another control plane's migration is what a start should do. On
 * PostgreSQL Flyway takes an advisory lock and retries it itself: {@link SchemaMigrations} wraps H2 only.
 */
final class MigrationLockWait implements DataSource {

    /** How long a migration waits for another control plane's migration to finish. */
    static final Duration WAIT = Duration.ofSeconds(60);

    private final DataSource database;

    MigrationLockWait(DataSource database) {
        this.database = database;
    }

    @Override
    public Connection getConnection() throws SQLException {
        return waiting(database.getConnection());
    }

    @Override
    public Connection getConnection(String username, String password) throws SQLException {
        return waiting(database.getConnection(username, password));
    }

    private Connection waiting(Connection connection) throws SQLException {
        long before;
        try (Statement s = connection.createStatement(); ResultSet r = s.executeQuery("SELECT LOCK_TIMEOUT()")) {
            r.next();
            before = r.getLong(1);
            s.execute("SET LOCK_TIMEOUT " + WAIT.toMillis());
        } catch (SQLException e) {
            connection.close();
            throw e;
        }
        InvocationHandler handler = new InvocationHandler() {
            @Override
            public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
                if (method.getName().equals("close") && method.getParameterCount() == 0) {
                    try (Statement s = connection.createStatement()) {
                        s.execute("SET LOCK_TIMEOUT " + before);
                    } finally {
                        connection.close();
                    }
                    return null;
                }
                try {
                    return method.invoke(connection, args);
                } catch (InvocationTargetException e) {
                    throw e.getCause();
                }
            }
        };
        return (Connection) Proxy.newProxyInstance(MigrationLockWait.class.getClassLoader(), new Class<?>[] {Connection.class}, handler);
    }

    @Override
    public PrintWriter getLogWriter() throws SQLException {
        return database.getLogWriter();
    }

    @Override
    public void setLogWriter(PrintWriter out) throws SQLException {
        database.setLogWriter(out);
    }

    @Override
    public void setLoginTimeout(int seconds) throws SQLException {
        database.setLoginTimeout(seconds);
    }

    @Override
    public int getLoginTimeout() throws SQLException {
        return database.getLoginTimeout();
    }

    @Override
    public Logger getParentLogger() throws SQLFeatureNotSupportedException {
        return database.getParentLogger();
    }

    @Override
    public <T> T unwrap(Class<T> type) throws SQLException {
        return database.unwrap(type);
    }

    @Override
    public boolean isWrapperFor(Class<?> type) throws SQLException {
        return database.isWrapperFor(type);
    }
}
