package dev.qaldy.control.platform.boundary;

import jakarta.annotation.Resource;
import dev.qaldy.control.platform.control.DatabaseOutage;
import dev.qaldy.control.platform.control.SchemaUpdate;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import javax.sql.DataSource;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;

/**
 * Ready when the database answers a trivial query within 2 s (MicroProfile Health {@code /health/ready})
 * and the schema is up to date (after a start without the database, {@link SchemaUpdate} brings it up to
 * date first). It also tells {@link DatabaseOutage} when an outage begins and ends (the gates ask every
 * half second).
 *
 * <p>The query timeout is put back to none before the connection returns to the pool: H2 keeps a
 * statement's query timeout on its session ({@code SET QUERY_TIMEOUT}), so every later statement of
 * every transaction on that pooled connection was cancelled after 2 s (issue 14, found while looking
 * for the billing wedge: under load a billing write waiting for its row failed that way).
 */
@Readiness
@ApplicationScoped
public class DatabaseReadiness implements HealthCheck {

    /** Seconds the query may take before the check says DOWN. */
    static final int TIMEOUT_SECONDS = 2;

    @Resource(lookup = "jdbc/qaldy")
    DataSource database;

    @Inject
    SchemaUpdate schema;

    @Inject
    DatabaseOutage outage;

    @Override
    public HealthCheckResponse call() {
        try (Connection connection = database.getConnection(); Statement statement = connection.createStatement()) {
            statement.setQueryTimeout(TIMEOUT_SECONDS);
            try (ResultSet result = statement.executeQuery("SELECT 1")) {
                result.next();
            } finally {
                statement.setQueryTimeout(0);
            }
            outage.answered();
            schema.afterDatabaseAnswered();
            return HealthCheckResponse.named("database").up().build();
        } catch (SQLException | RuntimeException e) {
            outage.lost(e);
            return HealthCheckResponse.named("database").down().withData("error", e.getClass().getSimpleName()).build();
        }
    }
}
