package dev.qaldy.control.platform.control;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManagerFactory;
import jakarta.persistence.PersistenceUnit;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.eclipse.persistence.jpa.JpaEntityManagerFactory;
import org.eclipse.persistence.sessions.server.Server;
import org.eclipse.persistence.tools.schemaframework.SchemaManager;

/**
 * Brings the schema up to date once the database answers, when the control plane started without it
 * ({@link StartWithoutDatabase}). At a start with the database, EclipseLink creates missing tables and
 * columns (persistence.xml's {@code create-or-extend-tables}); a start without it could not, so a first
 * start or an upgrade during an outage would otherwise meet missing tables until restarted. This runs the
 * same EclipseLink step ({@link SchemaManager#extendDefaultTables}) once; after a start with the database
 * it does nothing.
 */
@ApplicationScoped
public class SchemaUpdate {

    @PersistenceUnit(unitName = "qaldy")
    EntityManagerFactory factory;

    @Inject
    Logger log;

    private volatile boolean upToDate;

    /**
     * Updates the schema if the control plane started without its database and it was not done yet. Call
     * only once the database answered; throws what EclipseLink throws (the next call tries again).
     */
    public void afterDatabaseAnswered() {
        if (upToDate || !StartWithoutDatabase.anyStartedWithoutDatabase()) {
            return;
        }
        synchronized (this) {
            if (upToDate) {
                return;
            }
            try {
                Server session = factory.unwrap(JpaEntityManagerFactory.class).getServerSession();
                new SchemaManager(session).extendDefaultTables(true);
            } catch (RuntimeException e) {
                log.log(Level.WARNING, "the database answers, but the schema could not be brought up to date (tried again at the"
                        + " next readiness check): {0}", e.toString());
                throw e;
            }
            upToDate = true;
            log.log(Level.INFO, "the database answers: created missing tables and columns, as a start with it does");
        }
    }
}
