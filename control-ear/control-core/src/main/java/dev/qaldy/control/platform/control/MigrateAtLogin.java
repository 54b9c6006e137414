package dev.qaldy.control.platform.control;

import jakarta.transaction.InvalidTransactionException;
import jakarta.transaction.SystemException;
import jakarta.transaction.Transaction;
import jakarta.transaction.TransactionManager;
import java.util.function.Supplier;
import java.util.logging.Level;
import java.util.logging.Logger;
import javax.naming.InitialContext;
import javax.naming.NamingException;
import javax.sql.DataSource;
import org.eclipse.persistence.sessions.Connector;
import org.eclipse.persistence.sessions.DatasourceLogin;
import org.eclipse.persistence.sessions.JNDIConnector;
import org.eclipse.persistence.sessions.Session;
import org.eclipse.persistence.sessions.SessionEvent;
import org.eclipse.persistence.sessions.SessionEventAdapter;
import org.eclipse.persistence.transaction.JTATransactionController;
import org.flywaydb.core.api.output.MigrateResult;

/**
 * Migrates the schema ({@link SchemaMigrations}) when the persistence unit logs in with its database, so no
 * query of the control plane ever meets an older schema; registered by {@link FailFastDatabase} after
 * {@link StartWithoutDatabase}. A login without the database leaves it to {@link SchemaUpdate}. A failed
 * migration fails the login, and so the deployment, with Flyway's message.
 */
public class MigrateAtLogin extends SessionEventAdapter {

    private static final Logger LOG = Logger.getLogger(MigrateAtLogin.class.getName());

    private final StartWithoutDatabase start;

    MigrateAtLogin(StartWithoutDatabase start) {
        this.start = start;
    }

    @Override
    public void postLogin(SessionEvent event) {
        if (start.startedWithoutDatabase()) {
            return;
        }
        MigrateResult result = outsideTransaction(event.getSession(), () -> SchemaMigrations.migrate(dataSourceOf(event.getSession())));
        LOG.log(Level.INFO, "schema: version {0} ({1} migrations applied now)",
                new Object[] {result.targetSchemaVersion == null ? result.initialSchemaVersion : result.targetSchemaVersion,
                        result.migrationsExecuted});
    }

    /**
     * Runs {@code migration} with the caller's JTA transaction, if any, suspended: Open Liberty logs the unit
     * in at its first use, inside a request's transaction, where Flyway's own commits are refused.
     */
    static MigrateResult outsideTransaction(Session session, Supplier<MigrateResult> migration) {
        TransactionManager manager = session.getExternalTransactionController() instanceof JTATransactionController jta
                ? jta.getTransactionManager() : null;
        Transaction suspended = null;
        try {
            if (manager != null) {
                suspended = manager.suspend();
            }
            return migration.get();
        } catch (SystemException e) {
            throw new IllegalStateException("cannot step out of the transaction to migrate the schema", e);
        } finally {
            if (suspended != null) {
                try {
                    manager.resume(suspended);
                } catch (InvalidTransactionException | SystemException e) {
                    throw new IllegalStateException("cannot resume the transaction after migrating the schema", e);
                }
            }
        }
    }

    /** The data source the session's login connects through (persistence.xml's {@code jdbc/qaldy}). */
    static DataSource dataSourceOf(Session session) {
        Connector connector = ((DatasourceLogin) session.getDatasourceLogin()).getConnector();
        if (connector instanceof StartWithoutDatabase.Deferring deferring) {
            connector = deferring.wrapped();
        }
        if (!(connector instanceof JNDIConnector jndi)) {
            throw new IllegalStateException("the persistence unit does not connect through a data source: " + connector);
        }
        if (jndi.getDataSource() != null) {
            return jndi.getDataSource();
        }
        try {
            return (DataSource) new InitialContext().lookup(jndi.getName());
        } catch (NamingException e) {
            throw new IllegalStateException("cannot look the data source up: " + jndi.getName(), e);
        }
    }
}
