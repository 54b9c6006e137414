package dev.qaldy.control.platform.control;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.Locale;
import java.util.Map;
import javax.sql.DataSource;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.output.MigrateResult;

/**
 * The control plane's schema, changed only by Flyway's versioned migrations in {@code db/migration}
 * (issue 19: one set for H2 and PostgreSQL, a history table, never EclipseLink's DDL generation). A
 * database whose tables EclipseLink created before there were migrations, with no history table, is
 * taken as version 1 ({@code baselineOnMigrate}); two control planes migrating one database at once
 * wait for Flyway's lock on the history table, up to {@link MigrationLockWait#WAIT}.
 */
public final class SchemaMigrations {

    /**
     * Where the scripts are, on the control plane's class path; its empty {@code flyway.location} file is
     * how Flyway finds a folder inside an EAR on Open Liberty (without it Liberty's class loader hid the
     * folder, and Flyway, finding no migrations, left the database empty). {@code db/callback}, Flyway's
     * default place for callbacks, is empty but for the same marker, so Liberty logs no error for it.
     */
    static final String LOCATION = "classpath:db/migration";
    /** Flyway's own table, in the database's default schema. */
    public static final String HISTORY_TABLE = "FLYWAY_SCHEMA_HISTORY";

    private SchemaMigrations() {
    }

    /**
     * Applies the migrations {@code database} has not had, in order, each in its own transaction.
     *
     * @return what Flyway did (versions applied; none when up to date)
     * @throws org.flywaydb.core.api.FlywayException a script failed, the database holds a version this
     *         control plane does not know (a newer control plane migrated it), or another control
     *         plane's migration held the history table longer than {@link MigrationLockWait#WAIT}
     * @throws IllegalStateException                 the database is neither H2 nor PostgreSQL
     */
    public static MigrateResult migrate(DataSource database) {
        String product = productOf(database);
        return Flyway.configure(SchemaMigrations.class.getClassLoader())
                .dataSource(isH2(product) ? new MigrationLockWait(database) : database)
                .locations(LOCATION)
                .failOnMissingLocations(true)
                .table(HISTORY_TABLE)
                .placeholders(placeholders(product))
                .baselineOnMigrate(true)
                .baselineVersion("1")
                .baselineDescription("tables created by EclipseLink before migrations")
                .load()
                .migrate();
    }

    /** The column types the two databases spell differently: {@code bytes} (a build's archive), {@code text} (logs, bodies). */
    static Map<String, String> placeholders(String product) {
        if (isH2(product)) {
            return Map.of("bytes", "LONGVARBINARY", "text", "LONGVARCHAR");
        }
        if (product.toLowerCase(Locale.ROOT).contains("postgres")) {
            return Map.of("bytes", "BYTEA", "text", "TEXT");
        }
        throw new IllegalStateException("the control plane's database must be H2 or PostgreSQL, not " + product);
    }

    private static boolean isH2(String product) {
        return product.toLowerCase(Locale.ROOT).contains("h2");
    }

    private static String productOf(DataSource database) {
        try (Connection connection = database.getConnection()) {
            return connection.getMetaData().getDatabaseProductName();
        } catch (SQLException e) {
            throw new IllegalStateException("cannot ask the database what it is: " + e.getMessage(), e);
        }
    }
}
