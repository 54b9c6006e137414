package dev.qaldy.control.it.stuck;

import dev.qaldy.control.billing.entity.BillingClock;
import dev.qaldy.control.billing.entity.UsageBatchRecord;
import dev.qaldy.control.platform.control.SequenceRows;
import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedExecutorService;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import jakarta.transaction.Transactional;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;

/**
 * Test only (added to the IT's WAR, never shipped): {@code POST /api/v1/test-only/fail-all-midway}
 * is a billing transaction that reads, is then overtaken by the pool failing all its connections
 * (another thread's validation finds a pooled connection dead, as after a database restart), then
 * locks the billing row and commits.
 */
@Path("test-only/fail-all-midway")
@RequestScoped
public class FailAllResource {

    @Inject
    Midway midway;

    @POST
    public String run() throws Exception {
        return midway.readFailAllThenLock();
    }

    /** The transaction. */
    @ApplicationScoped
    public static class Midway {

        @PersistenceContext(unitName = "qaldy")
        EntityManager em;

        @Inject
        SequenceRows sequences;

        @Resource(lookup = "jdbc/qaldy")
        DataSource pool;

        @Resource
        ManagedExecutorService executor;

        @Transactional
        public String readFailAllThenLock() throws Exception {
            em.find(UsageBatchRecord.class, "no-such-batch"); // the transaction's first connection
            long mine = ((Number) em.createNativeQuery("SELECT SESSION_ID()").getSingleResult()).longValue();
            String failed = executor.submit(() -> killOtherSessionsAndAskAgain(mine)).get(30, TimeUnit.SECONDS);
            sequences.lock(BillingClock.class);
            long locking = ((Number) em.createNativeQuery("SELECT SESSION_ID()").getSingleResult()).longValue();
            return "read on session " + mine + ", locked on session " + locking + "; " + failed;
        }

        /** On a thread with no transaction: ends every other idle session, then takes connections, which validation finds dead. */
        String killOtherSessionsAndAskAgain(long keep) {
            List<Long> others = new ArrayList<>();
            try (Connection admin = pool.getConnection(); Statement statement = admin.createStatement()) {
                try (ResultSet sessions = statement.executeQuery("SELECT SESSION_ID FROM INFORMATION_SCHEMA.SESSIONS"
                        + " WHERE SESSION_ID <> SESSION_ID() AND SESSION_ID <> " + keep)) {
                    while (sessions.next()) {
                        others.add(sessions.getLong(1));
                    }
                }
                for (long id : others) {
                    statement.execute("CALL ABORT_SESSION(" + id + ")");
                }
                statement.execute("CALL ABORT_SESSION(SESSION_ID())"); // this one goes back to the pool dead too
            } catch (SQLException expected) {
                // the last statement ends its own session
            }
            int dead = 0;
            for (int i = 0; i < 3; i++) {
                try (Connection again = pool.getConnection()) {
                    again.isValid(1);
                } catch (SQLException e) {
                    dead++;
                }
            }
            return others.size() + " other sessions ended, " + dead + " allocations failed";
        }
    }
}
