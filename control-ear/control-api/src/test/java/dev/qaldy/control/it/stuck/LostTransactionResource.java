package dev.qaldy.control.it.stuck;

import dev.qaldy.control.billing.entity.BillingClock;
import dev.qaldy.control.platform.control.SequenceRows;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.transaction.Transactional;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.QueryParam;

/**
 * Test only (added to the IT's WAR, never shipped): {@code POST /api/v1/test-only/lost-transaction?batch=B}
 * locks the billing row, then calls a {@code REQUIRES_NEW} method whose commit fails, the shape the
 * control plane had in SequenceRows and Sessions before issue 14.
 */
@Path("test-only/lost-transaction")
@RequestScoped
public class LostTransactionResource {

    @Inject
    Outer outer;

    @POST
    public String lose(@QueryParam("batch") String batch) {
        outer.lockThenNest(batch);
        return "not reached";
    }

    /** The outer transaction. */
    @ApplicationScoped
    public static class Outer {

        @Inject
        SequenceRows sequences;

        @Inject
        NestedInsert nested;

        @Transactional
        public void lockThenNest(String batch) {
            sequences.lock(BillingClock.class);
            nested.insertTaken(batch);
        }
    }
}
