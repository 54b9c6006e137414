package dev.qaldy.control.platform.control;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import jakarta.persistence.EntityManagerFactory;
import jakarta.persistence.Persistence;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import org.eclipse.persistence.config.SessionCustomizer;
import org.eclipse.persistence.sessions.Session;
import org.flywaydb.core.api.output.MigrateResult;
import org.h2.jdbcx.JdbcConnectionPool;
import org.h2.jdbcx.JdbcDataSource;
import org.junit.jupiter.api.Test;

/** On real in-memory H2 databases: Flyway's migrations against the schema EclipseLink derives from the entities. */
class SchemaMigrationsTest {

    private static final AtomicInteger DATABASES = new AtomicInteger();

    @Test
    void a_new_database_gets_exactly_the_schema_the_entities_need() throws SQLException {
        JdbcDataSource migrated = database();
        MigrateResult result = SchemaMigrations.migrate(migrated);
        JdbcDataSource derived = database();
        createdByEclipseLink(derived);

        assertThat(result.migrationsExecuted).isPositive();
        assertThat(schemaOf(migrated))
                .as("an entity changed without a migration in db/migration (or the reverse): add V<n>__<what>.sql")
                .isEqualTo(schemaOf(derived));
    }

    @Test
    void a_database_eclipselink_created_before_migrations_is_taken_as_version_1_keeps_its_rows_and_gets_the_later_ones() throws SQLException {
        JdbcDataSource old = database();
        createdBeforeMigrations(old);
        update(old, "INSERT INTO SHARING_CLOCK (ID, LAST_SEQUENCE) VALUES (1, 41)");

        MigrateResult result = SchemaMigrations.migrate(old);

        assertThat(result.initialSchemaVersion).isEqualTo("1");
        assertThat(result.migrationsExecuted).as("every version after 1").isEqualTo(SchemaMigrations.migrate(database()).migrationsExecuted - 1);
        assertThat(rows(old, "SELECT \"version\", \"type\" FROM " + SchemaMigrations.HISTORY_TABLE + " ORDER BY \"installed_rank\""))
                .contains("1 BASELINE");
        assertThat(rows(old, "SELECT LAST_SEQUENCE FROM SHARING_CLOCK")).containsExactly("41");
    }

    @Test
    void migrating_an_up_to_date_database_does_nothing() {
        JdbcDataSource database = database();
        SchemaMigrations.migrate(database);

        assertThat(SchemaMigrations.migrate(database).migrationsExecuted).isZero();
    }

    @Test
    void a_migration_waits_for_another_control_planes_migration_past_the_requests_lock_timeout_and_gives_it_back() throws Exception {
        JdbcConnectionPool pool = JdbcConnectionPool.create("jdbc:h2:mem:migrations" + DATABASES.incrementAndGet()
                + ";DB_CLOSE_DELAY=-1;LOCK_TIMEOUT=300", "sa", "");
        try {
            pool.setMaxConnections(3);
            SchemaMigrations.migrate(pool);
            MigrateResult waited;
            try (Connection other = pool.getConnection(); Statement s = other.createStatement()) {
                other.setAutoCommit(false);
                s.execute("SELECT * FROM " + SchemaMigrations.HISTORY_TABLE + " FOR UPDATE"); // as another control plane's migration
                // The other migration takes a second, longer than the requests' 300 ms, far shorter than the migration's wait.
                CompletableFuture<Void> done = CompletableFuture.runAsync(() -> {
                    try {
                        Thread.sleep(1_000);
                        other.rollback();
                    } catch (InterruptedException | SQLException e) {
                        throw new IllegalStateException(e);
                    }
                });
                waited = SchemaMigrations.migrate(pool);
                done.join();
            }
            assertThat(waited.migrationsExecuted).isZero();
            List<Connection> all = new ArrayList<>();
            try {
                for (int i = 0; i < 3; i++) {
                    all.add(pool.getConnection());
                }
                for (Connection c : all) {
                    try (Statement s = c.createStatement(); ResultSet r = s.executeQuery("SELECT LOCK_TIMEOUT()")) {
                        r.next();
                        assertThat(r.getLong(1)).as("each pooled connection has the requests' lock timeout back").isEqualTo(300);
                    }
                }
            } finally {
                for (Connection c : all) {
                    c.close();
                }
            }
        } finally {
            pool.dispose();
        }
    }

    @Test
    void the_two_databases_get_their_own_spelling_of_bytes_and_text_and_others_are_refused() {
        assertThat(SchemaMigrations.placeholders("H2")).containsEntry("bytes", "LONGVARBINARY").containsEntry("text", "LONGVARCHAR");
        assertThat(SchemaMigrations.placeholders("PostgreSQL")).containsEntry("bytes", "BYTEA").containsEntry("text", "TEXT");
        assertThatThrownBy(() -> SchemaMigrations.placeholders("MySQL")).hasMessageContaining("H2 or PostgreSQL");
    }

    private static JdbcDataSource database() {
        JdbcDataSource source = new JdbcDataSource();
        source.setURL("jdbc:h2:mem:migrations" + DATABASES.incrementAndGet() + ";DB_CLOSE_DELAY=-1");
        source.setUser("sa");
        return source;
    }

    /** The schema as EclipseLink 4.0 creates it from the persistence unit's entities (what the cells ran on before issue 19). */
    private static void createdByEclipseLink(JdbcDataSource database) {
        EntityManagerFactory factory = Persistence.createEntityManagerFactory("qaldy", Map.of(
                "jakarta.persistence.transactionType", "RESOURCE_LOCAL",
                "jakarta.persistence.jtaDataSource", "",
                "jakarta.persistence.jdbc.driver", "org.h2.Driver",
                "jakarta.persistence.jdbc.url", database.getURL(),
                "jakarta.persistence.jdbc.user", "sa",
                "jakarta.persistence.jdbc.password", "",
                "eclipselink.session.customizer", NoCustomizer.class.getName(),
                "eclipselink.ddl-generation", "create-tables",
                "eclipselink.ddl-generation.output-mode", "database"));
        try {
            factory.createEntityManager().close();
        } finally {
            factory.close();
        }
    }

    /**
     * A database as the cells' EclipseLink made it before there were migrations: V1's statements (V1 is that
     * schema, checked against the entities when it was written) with no history table.
     */
    private static void createdBeforeMigrations(JdbcDataSource database) throws SQLException {
        String script;
        try (InputStream in = SchemaMigrationsTest.class.getResourceAsStream("/db/migration/V1__schema_of_2026_12.sql")) {
            script = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Map<String, String> types = SchemaMigrations.placeholders("H2");
        for (String statement : script.replaceAll("(?m)^--.*$", "").split(";")) {
            if (!statement.isBlank()) {
                update(database, statement.replace("${bytes}", types.get("bytes")).replace("${text}", types.get("text")));
            }
        }
    }

    /** Tables and columns (type, length, nullability), indexes, constraints and sequences; Flyway's own table left out. */
    private static TreeSet<String> schemaOf(JdbcDataSource database) throws SQLException {
        String history = "'" + SchemaMigrations.HISTORY_TABLE + "'";
        TreeSet<String> schema = new TreeSet<>();
        schema.addAll(rows(database, "SELECT TABLE_NAME, COLUMN_NAME, DATA_TYPE, CHARACTER_MAXIMUM_LENGTH, IS_NULLABLE"
                + " FROM INFORMATION_SCHEMA.COLUMNS WHERE TABLE_SCHEMA = 'PUBLIC' AND TABLE_NAME <> " + history));
        // The index H2 makes for a constraint is named <constraint>_INDEX_<n>, n (hexadecimal) from H2's count of the schema's objects,
        // which an ALTER TABLE (V3) moves: the name's number is H2's, not the schema's.
        rows(database, "SELECT INDEX_NAME, TABLE_NAME, INDEX_TYPE_NAME FROM INFORMATION_SCHEMA.INDEXES"
                + " WHERE TABLE_SCHEMA = 'PUBLIC' AND TABLE_NAME <> " + history + " AND INDEX_NAME NOT LIKE 'PRIMARY_KEY%'")
                .forEach(row -> schema.add(row.replaceFirst("_INDEX_[0-9A-F]+ ", "_INDEX_n ")));
        schema.addAll(rows(database, "SELECT CONSTRAINT_NAME, TABLE_NAME, CONSTRAINT_TYPE FROM INFORMATION_SCHEMA.TABLE_CONSTRAINTS"
                + " WHERE TABLE_SCHEMA = 'PUBLIC' AND TABLE_NAME <> " + history + " AND CONSTRAINT_TYPE <> 'PRIMARY KEY'"));
        schema.addAll(rows(database, "SELECT SEQUENCE_NAME, INCREMENT, START_VALUE FROM INFORMATION_SCHEMA.SEQUENCES"
                + " WHERE SEQUENCE_SCHEMA = 'PUBLIC'"));
        return schema;
    }

    private static List<String> rows(JdbcDataSource database, String query) throws SQLException {
        List<String> rows = new ArrayList<>();
        try (Connection connection = database.getConnection(); Statement statement = connection.createStatement();
                ResultSet result = statement.executeQuery(query)) {
            int columns = result.getMetaData().getColumnCount();
            while (result.next()) {
                StringBuilder row = new StringBuilder();
                for (int i = 1; i <= columns; i++) {
                    row.append(i > 1 ? " " : "").append(result.getString(i));
                }
                rows.add(row.toString());
            }
        }
        return rows;
    }

    private static void update(JdbcDataSource database, String sql) throws SQLException {
        try (Connection connection = database.getConnection(); Statement statement = connection.createStatement()) {
            statement.executeUpdate(sql);
        }
    }

    /** Stands in for FailFastDatabase, whose listeners need the server's data source. */
    public static final class NoCustomizer implements SessionCustomizer {
        @Override
        public void customize(Session session) {
        }
    }
}
