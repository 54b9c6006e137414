package dev.qaldy.control.platform.control;

import static org.assertj.core.api.Assertions.assertThat;

import dev.qaldy.control.billing.entity.BillingClock;
import jakarta.persistence.LockTimeoutException;
import jakarta.persistence.PersistenceException;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Map;
import org.eclipse.persistence.exceptions.DatabaseException;
import org.junit.jupiter.api.Test;

class LockWaitsTest {

    static final SQLException H2_ROW_LOCK = new SQLException(
            "Timeout trying to lock table \"BILLING_CLOCK\"; SQL statement:\nSELECT ID FROM BILLING_CLOCK FOR UPDATE [50200-224]",
            "HYT00", 50200);

    @Test
    void a_lock_wait_that_ran_out_is_told_from_other_failures_however_deep_it_is_wrapped() {
        Map<Throwable, Boolean> cases = Map.of(
                new PersistenceException(DatabaseException.sqlException(H2_ROW_LOCK)), true,
                new LockTimeoutException("lock"), true,
                new RuntimeException(new SQLException("deadlock", "40001")), true,
                new SQLException("canceling statement due to lock timeout", "55P03"), true,
                new SQLException("Statement was canceled or the session timed out", "57014", 57014), false,
                new SQLException("Connection is broken", "90067"), false,
                new IllegalStateException("no"), false);
        cases.forEach((thrown, ranOut) -> assertThat(LockWaits.ranOut(thrown)).as(thrown.toString()).isEqualTo(ranOut));
        assertThat(LockWaits.ranOut(null)).isFalse();
    }

    @Test
    void the_lock_is_named_as_the_database_named_it() {
        assertThat(LockWaits.table(new PersistenceException(H2_ROW_LOCK))).isEqualTo("BILLING_CLOCK");
        assertThat(LockWaits.table(new SQLException("Timeout trying to lock table \"PUBLIC.APPS\"", "HYT00", 50200))).isEqualTo("APPS");
        assertThat(LockWaits.table(new LockTimeoutException("lock"))).isNull();
    }

    @Test
    void a_sequence_row_is_named_by_its_table_and_the_probe_wait_is_written_in_seconds() {
        assertThat(SequenceRows.table(BillingClock.class)).isEqualTo("BILLING_CLOCK");
        assertThat(WriteLocks.seconds(Duration.ofSeconds(1))).isEqualTo("1.000");
        assertThat(WriteLocks.seconds(Duration.ofMillis(250))).isEqualTo("0.250");
        assertThat(WriteLocks.seconds(Duration.ZERO)).as("at least 1 ms").isEqualTo("0.001");
    }
}
