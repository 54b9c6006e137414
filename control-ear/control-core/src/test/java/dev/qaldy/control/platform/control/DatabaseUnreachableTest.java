package dev.qaldy.control.platform.control;

import static org.assertj.core.api.Assertions.assertThat;

import jakarta.resource.spi.ResourceAllocationException;
import java.net.ConnectException;
import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.SQLSyntaxErrorException;
import java.util.Map;
import org.eclipse.persistence.exceptions.DatabaseException;
import org.junit.jupiter.api.Test;

class DatabaseUnreachableTest {

    @Test
    void a_lost_or_unreachable_database_is_told_from_other_failures_however_deep_it_is_wrapped() {
        Map<Throwable, Boolean> cases = Map.of(
                new SQLNonTransientConnectionException("refused"), true,
                new SQLException("broken", "08006"), true,
                new SQLException("Connection is broken", "90067"), true,
                new RuntimeException(new ResourceAllocationException("pool")), true,
                DatabaseException.sqlException(new SQLException("allocating", null, new ConnectException("refused"))), true,
                new SQLException("wrong user name or password", "28000"), false,
                new SQLSyntaxErrorException("bad SQL", "42000"), false,
                new IllegalStateException("no"), false);
        cases.forEach((thrown, unreachable) -> assertThat(DatabaseUnreachable.behind(thrown)).as(thrown.toString()).isEqualTo(unreachable));
        assertThat(DatabaseUnreachable.behind(null)).isFalse();
    }
}
