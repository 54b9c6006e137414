package dev.qaldy.control.it.stuck;

import dev.qaldy.control.billing.entity.BillingClock;
import dev.qaldy.control.platform.control.SequenceRows;
import jakarta.annotation.Resource;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.transaction.UserTransaction;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;

/**
 * Test only (added to the IT's WAR, never shipped): {@code POST /api/v1/test-only/left-open} begins a
 * transaction on the request thread, locks the billing row in it and answers without ending it, as a
 * transaction the container leaves bound to a worker thread would.
 */
@Path("test-only/left-open")
@RequestScoped
public class LeftOpenResource {

    @Resource
    UserTransaction transaction;

    @Inject
    SequenceRows sequences;

    @POST
    public String leaveOpen() throws Exception {
        transaction.begin();
        sequences.lock(BillingClock.class);
        return "left open";
    }
}
