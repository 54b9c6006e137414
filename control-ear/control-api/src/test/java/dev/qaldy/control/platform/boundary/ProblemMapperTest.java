package dev.qaldy.control.platform.boundary;

import static org.assertj.core.api.Assertions.assertThat;

import dev.qaldy.control.platform.boundary.ProblemMapper.Problem;
import dev.qaldy.control.platform.control.Conflict;
import dev.qaldy.control.platform.control.DatabaseOutage;
import dev.qaldy.control.platform.control.LockBusy;
import dev.qaldy.control.platform.control.TooManyAttempts;
import jakarta.persistence.PersistenceException;
import jakarta.resource.spi.ResourceAllocationException;
import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;
import java.util.logging.Logger;
import org.junit.jupiter.api.Test;

class ProblemMapperTest {

    final ProblemMapper mapper = new ProblemMapper();

    {
        mapper.log = Logger.getLogger(ProblemMapperTest.class.getName());
        mapper.outage = new DatabaseOutage(mapper.log, java.time.Clock.systemUTC());
    }

    @Test
    void business_exceptions_keep_their_status_type_and_detail_even_when_wrapped() {
        Problem problem = mapper.describe(new RuntimeException(new Conflict("the app name x is taken")));
        assertThat(problem.status()).isEqualTo(409);
        assertThat(problem.json()).isEqualTo("{\"type\":\"urn:qaldy:problem:conflict\",\"title\":\"Conflict\","
                + "\"status\":409,\"detail\":\"The app name x is taken.\"}");
        assertThat(mapper.describe(new TooManyAttempts("wait", 42)).headers()).containsEntry("Retry-After", 42L);
    }

    /** Issue 20: raw clauses of the API ("not a DNS label…", lower-case starts) reach people as sentences. */
    @Test
    void every_business_detail_leaves_as_a_sentence() {
        assertThat(ProblemMapper.sentence("no app named x")).isEqualTo("No app named x.");
        assertThat(ProblemMapper.sentence("Already a sentence.")).isEqualTo("Already a sentence.");
        assertThat(ProblemMapper.sentence("  why?  ")).isEqualTo("Why?");
        assertThat(ProblemMapper.sentence("\"x\" is taken")).isEqualTo("\"x\" is taken.");
        assertThat(ProblemMapper.sentence(" ")).isEqualTo("The request cannot be served.");
    }

    @Test
    void unknown_errors_say_nothing_but_a_reference() {
        Problem problem = mapper.describe(new IllegalStateException("secret internals at /var/lib/x"));
        assertThat(problem.status()).isEqualTo(500);
        assertThat(problem.json()).doesNotContain("secret").doesNotContain("IllegalState")
                .containsPattern("reference [0-9a-f-]{36}");
    }

    @Test
    void a_lost_database_connection_is_a_503() {
        Throwable pool = new SQLException("Error in allocating a connection",
                new ResourceAllocationException("could not allocate", new SQLNonTransientConnectionException("broken")));
        Problem problem = mapper.describe(new PersistenceException(pool));
        assertThat(problem.status()).isEqualTo(503);
        assertThat(problem.headers()).containsEntry("Retry-After", 5);
        assertThat(mapper.describe(new RuntimeException(new SQLException("down", "08001"))).status()).isEqualTo(503);
        assertThat(mapper.describe(new RuntimeException(new SQLException("syntax", "42000"))).status()).isEqualTo(500);
    }

    @Test
    void a_broken_h2_connection_as_open_liberty_reports_it_is_the_database_unreachable_not_a_500() {
        Throwable liberty = new PersistenceException(new java.sql.SQLNonTransientException("Connection is broken", "90067"));
        Throwable refused = new PersistenceException(new RuntimeException(new java.net.ConnectException("Connection refused")));
        assertThat(mapper.describe(liberty).status()).isEqualTo(503);
        assertThat(mapper.describe(refused).status()).isEqualTo(503);
        assertThat(mapper.describe(new PersistenceException(new SQLException("syntax", "42000"))).status()).isEqualTo(500);
    }

    @Test
    void a_lock_wait_that_ran_out_is_a_503_busy_naming_the_lock_never_a_500() {
        // What EclipseLink threw on Payara while a transaction held the billing row (issue 14): a 500 then.
        Throwable h2 = new jakarta.persistence.PessimisticLockException(new SQLException(
                "Timeout trying to lock table \"BILLING_CLOCK\"; SQL statement:", "HYT00", 50200));
        Problem problem = mapper.describe(h2);
        assertThat(problem.status()).isEqualTo(503);
        assertThat(problem.type()).isEqualTo("urn:qaldy:problem:busy");
        assertThat(problem.detail()).contains("BILLING_CLOCK");
        assertThat(problem.headers()).containsEntry("Retry-After", LockBusy.RETRY_AFTER_SECONDS);

        Problem named = mapper.describe(new RuntimeException(new LockBusy("the BILLING_CLOCK row")));
        assertThat(named.status()).isEqualTo(503);
        assertThat(named.detail()).contains("the BILLING_CLOCK row is held by another change");
        assertThat(named.headers()).containsEntry("Retry-After", LockBusy.RETRY_AFTER_SECONDS);
        assertThat(mapper.describe(new RuntimeException(new SQLException("Statement was canceled", "57014", 57014))).status())
                .as("a cancelled statement is not a lock wait").isEqualTo(500);
    }
}
