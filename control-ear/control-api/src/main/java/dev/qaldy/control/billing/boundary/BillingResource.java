package dev.qaldy.control.billing.boundary;

import dev.qaldy.control.billing.entity.BillingView;
import dev.qaldy.control.platform.boundary.CurrentSession;
import dev.qaldy.control.platform.boundary.JsonBody;
import dev.qaldy.control.platform.boundary.SignedIn;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.io.InputStream;

/** {@code /api/v1/billing}: the signed-in person's spending this month, and their monthly cap. */
@Path("billing")
@SignedIn
@RequestScoped
@Produces(MediaType.APPLICATION_JSON)
public class BillingResource {

    @Inject
    Billing billing;

    @Inject
    CurrentSession current;

    /** → {@code {period, capCents, capIsDefault, freeAllowanceCents, limitCents, spentCents, spentMillicents, prices, apps, asleep, nextPeriodStarts}}. */
    @GET
    public BillingView show() {
        return billing.view(current.get());
    }

    /** {@code {capCents}} → 200 with the new view; out of range → 400. */
    @PUT
    @Path("cap")
    @Consumes(MediaType.APPLICATION_JSON)
    public BillingView setCap(InputStream body) {
        return billing.setCap(current.get(), JsonBody.read(body).wholeNumber("capCents"));
    }
}
