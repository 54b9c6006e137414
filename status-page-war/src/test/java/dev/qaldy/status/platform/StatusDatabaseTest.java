package dev.qaldy.status.platform;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.ResultSet;
import java.sql.Statement;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The status page's own H2 file: created owner-only from config, schema applied again safely, data kept. */
class StatusDatabaseTest {

    @TempDir
    Path temp;

    @Test
    void aFileDatabaseInTheConfiguredFolderKeepsItsDataAcrossRestarts() throws Exception {
        Path dir = temp.resolve("var/status");
        StatusDatabase first = new StatusDatabase();
        first.settings = TestSettings.defaults().dataDir(dir).build();
        first.log = java.util.logging.Logger.getLogger("test");
        first.openConfigured();
        first.inTransaction(c -> c.createStatement().executeUpdate(
                "INSERT INTO uptime_day VALUES ('local.gate', 1, 2, 3, 4)"));
        first.close();

        assertThat(dir.resolve("status.mv.db")).exists();
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(dir))).isEqualTo("rwx------");

        StatusDatabase second = new StatusDatabase();
        second.settings = first.settings;
        second.log = first.log;
        second.openConfigured();
        try {
            int up = second.inTransaction(c -> {
                try (Statement s = c.createStatement(); ResultSet rows = s.executeQuery("SELECT up_count FROM uptime_day")) {
                    rows.next();
                    return rows.getInt(1);
                }
            });
            assertThat(up).isEqualTo(2);
            assertThat(second.ping()).isTrue();
        } finally {
            second.close();
        }
        assertThat(second.ping()).isFalse();
    }

    @Test
    void aFailedTransactionLeavesNothing() {
        StatusDatabase database = Databases.fresh();
        try {
            try {
                database.inTransaction(c -> {
                    c.createStatement().executeUpdate("INSERT INTO uptime_day VALUES ('a', 1, 1, 1, 1)");
                    throw new IllegalStateException("boom");
                });
            } catch (IllegalStateException expected) {
                // rolled back
            }
            int rows = database.inTransaction(c -> {
                try (ResultSet r = c.createStatement().executeQuery("SELECT COUNT(*) FROM uptime_day")) {
                    r.next();
                    return r.getInt(1);
                }
            });
            assertThat(rows).isZero();
        } finally {
            database.close();
        }
    }

    @Test
    void aDatabaseFromBeforeStartingGetsTheColumnAndItsComponentsAreNotStarting() throws Exception {
        String url = "jdbc:h2:mem:" + java.util.UUID.randomUUID() + ";DB_CLOSE_DELAY=-1";
        try (java.sql.Connection old = java.sql.DriverManager.getConnection(url, "status", ""); Statement s = old.createStatement()) {
            s.executeUpdate("CREATE TABLE component_state (component_id VARCHAR(100) PRIMARY KEY, health VARCHAR(10) NOT NULL, "
                    + "reason VARCHAR(20) NOT NULL, since_ms BIGINT NOT NULL, last_probe_ms BIGINT NOT NULL, latency_ms BIGINT, "
                    + "detail VARCHAR(500) NOT NULL)");
            s.executeUpdate("INSERT INTO component_state VALUES ('local.gate', 'DOWN', 'NO_ANSWER', 1, 2, NULL, 'No answer.')");
        }
        StatusDatabase database = new StatusDatabase();
        database.open(url);
        try {
            var states = new dev.qaldy.status.probes.control.ProbeStore(database).loadStates();

            assertThat(states.get("local.gate").starting()).as("watched before: an outage, not a start").isFalse();
            assertThat(states.get("local.gate").sinceMs()).isEqualTo(1);
        } finally {
            database.close();
        }
    }
}
