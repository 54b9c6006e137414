package dev.qaldy.control.platform.control;

import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.logging.Level;
import java.util.logging.Logger;
import javax.sql.DataSource;
import org.flywaydb.core.api.output.MigrateResult;

/**
 * Migrates the schema ({@link SchemaMigrations}) once the database answers, when the control plane started
 * without it ({@link StartWithoutDatabase}); a start with the database migrated at its login
 * ({@link MigrateAtLogin}), and then this does nothing. Without it a first start or an upgrade during an
 * outage would meet missing tables until restarted.
 */
@ApplicationScoped
public class SchemaUpdate {

    @Resource(lookup = "jdbc/qaldy")
    DataSource database;

    @Inject
    Logger log;

    private volatile boolean upToDate;

    /**
     * Migrates if the control plane started without its database and it was not done yet. Call only once
     * the database answered; throws what Flyway throws (the next call tries again).
     */
    public void afterDatabaseAnswered() {
        if (upToDate || !StartWithoutDatabase.anyStartedWithoutDatabase()) {
            return;
        }
        synchronized (this) {
            if (upToDate) {
                return;
            }
            MigrateResult result;
            try {
                result = SchemaMigrations.migrate(database);
            } catch (RuntimeException e) {
                log.log(Level.WARNING, "the database answers, but the schema could not be migrated (tried again at the"
                        + " next readiness check): {0}", e.toString());
                throw e;
            }
            upToDate = true;
            log.log(Level.INFO, "the database answers: schema migrated, {0} migrations applied", result.migrationsExecuted);
        }
    }
}
