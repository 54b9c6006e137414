package dev.qaldy.control.platform.control;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManagerFactory;
import jakarta.persistence.PersistenceUnit;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.eclipse.persistence.sessions.DatabaseSession;
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
        if (upToDate) {
            return;
        }
        synchronized (this) {
            if (!upToDate) {
                DatabaseSession session = factory.unwrap(DatabaseSession.class);
                if (StartWithoutDatabase.of(session).map(StartWithoutDatabase::startedWithoutDatabase).orElse(false)) {
                    new SchemaManager(session).extendDefaultTables(true);
                    log.log(Level.INFO, "the database answers: created missing tables and columns, as a start with it does");
                }
                upToDate = true;
            }
        }
    }
}
