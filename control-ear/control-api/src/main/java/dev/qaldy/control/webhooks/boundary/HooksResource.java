package dev.qaldy.control.webhooks.boundary;

import dev.qaldy.control.platform.boundary.CurrentSession;
import dev.qaldy.control.platform.boundary.JsonBody;
import dev.qaldy.control.platform.boundary.QueryNumbers;
import dev.qaldy.control.platform.boundary.SignedIn;
import dev.qaldy.control.platform.control.InvalidInput;
import dev.qaldy.control.webhooks.entity.Delivery;
import dev.qaldy.control.webhooks.entity.Hook;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;
import java.io.InputStream;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * {@code /api/v1/apps/{app}/hooks}: create (the secret is shown once), list, roll the secret of and delete an app's
 * webhooks (owner only).
 */
@Path("apps/{app}/hooks")
@SignedIn
@RequestScoped
@Produces(MediaType.APPLICATION_JSON)
public class HooksResource {

    /**
     * A hook as listed: never its secrets.
     *
     * @param secretSince         when the current secret came into force
     * @param previousSecretUntil when the rolled-over secret stops being accepted; null when none is
     */
    public record HookView(String name, String job, String url, Instant createdAt, Instant secretSince, Instant previousSecretUntil) {
    }

    /**
     * A hook whose secret was just rolled, with the new secret: the only time the API shows it.
     *
     * @param previousSecretUntil when the previous secret stops being accepted; null when it stopped at once
     * @param note                the same in words
     */
    public record RolledView(String name, String job, String url, String secret, Instant secretSince, Instant previousSecretUntil,
            String note) {
    }

    /** How long a rolled-over secret stays in force unless the owner says (Stripe's default: 24 h). */
    static final long DEFAULT_KEEP_PREVIOUS_SECONDS = 24 * 3600;

    /** A hook just created, with its secret: the only time the API shows it. */
    public record CreatedView(String name, String job, String url, String secret, Instant createdAt, String note) {
    }

    @Inject
    Hooks hooks;

    @Inject
    CurrentSession current;

    @Inject
    Clock clock;

    @GET
    public List<HookView> list(@PathParam("app") String app) {
        return hooks.list(current.get(), app).stream()
                .map(h -> view(h, hooks.url(h.app().name(), h.name()))).toList();
    }

    private HookView view(Hook h, String url) {
        return new HookView(h.name(), h.job(), url, h.createdAt(), h.secretSince(), h.previousAcceptedUntil(clock.instant()));
    }

    /**
     * Rolls the hook's secret: {@code {"keepPreviousForSeconds": N}} (optional, 0 to 604800, default 86400) →
     * 200 {@code {name, job, url, secret, secretSince, previousSecretUntil, note}} with the new secret, the only time the API shows it;
     * the previous secret is accepted for N more seconds. No such hook → 404; N out of range → 400.
     */
    @POST
    @Path("{hook}/roll-secret")
    public Response rollSecret(@PathParam("app") String app, @PathParam("hook") String hook, InputStream body) {
        long keep = DEFAULT_KEEP_PREVIOUS_SECONDS;
        JsonBody json = JsonBody.readOptional(body);
        if (json != null && json.json().containsKey("keepPreviousForSeconds")) {
            keep = json.wholeNumber("keepPreviousForSeconds");
        }
        if (keep < 0 || keep > Hook.MAX_PREVIOUS.toSeconds()) {
            throw new InvalidInput("keepPreviousForSeconds must be from 0 (the previous secret stops now) to "
                    + Hook.MAX_PREVIOUS.toSeconds() + " (7 days)");
        }
        Hooks.Created rolled = hooks.roll(current.get(), app, hook, Duration.ofSeconds(keep));
        Hook h = rolled.hook();
        Instant until = h.previousAcceptedUntil(h.secretSince());
        return Response.ok(new RolledView(h.name(), h.job(), rolled.url(), rolled.secret(), h.secretSince(), until,
                until == null ? "the previous secret is no longer accepted" : "the previous secret is accepted until " + until))
                .header("Cache-Control", "no-store").build();
    }

    /**
     * {@code {name, job}} → 201 {@code {name, job, url, secret, createdAt, note?}}; a name taken → 409; a job
     * the live version does not register → 400 listing those it does ({@code note}: why it was not checked).
     */
    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    public Response create(@PathParam("app") String app, InputStream body, @Context UriInfo uri) {
        JsonBody json = JsonBody.read(body);
        Hooks.Created created = hooks.create(current.get(), app, json.text("name"), json.text("job"));
        Hook hook = created.hook();
        return Response.created(uri.getAbsolutePathBuilder().path(hook.name()).build())
                .header("Cache-Control", "no-store")
                .entity(new CreatedView(hook.name(), hook.job(), created.url(), created.secret(), hook.createdAt(), created.note())).build();
    }

    /**
     * A delivery as its hook's owner sees it: when it arrived, its size, whether it was a test the
     * control plane sent, and the run it queued ({@code runState} null when the run is gone).
     */
    public record DeliveryView(String deliveryId, Instant receivedAt, long bodyBytes, boolean test, Long runId,
            String runState) {

        static DeliveryView of(Hooks.DeliveryRecord record) {
            Delivery d = record.delivery();
            return new DeliveryView(d.deliveryId(), d.receivedAt(), d.bodyBytes(), d.isTest(), d.runId(),
                    record.run() == null ? null : record.run().state().label());
        }
    }

    /**
     * Sends the hook a test delivery, signed with its secret, through the same checks as a sender's
     * → 202 {@code {"deliveryId"}}; it runs the hook's job and shows in the deliveries. No such hook → 404.
     */
    @POST
    @Path("{hook}/test")
    public Response test(@PathParam("app") String app, @PathParam("hook") String hook) {
        Hooks.Received received = hooks.sendTest(current.get(), app, hook);
        return Response.accepted(Map.of("deliveryId", received.deliveryId())).build();
    }

    /** The hook's latest deliveries, newest first ({@code limit} 1–100, default 20). No such hook → 404. */
    @GET
    @Path("{hook}/deliveries")
    public List<DeliveryView> deliveries(@PathParam("app") String app, @PathParam("hook") String hook,
            @QueryParam("limit") String limit) {
        long n = QueryNumbers.wholeNumber("limit", limit, 20);
        return hooks.deliveries(current.get(), app, hook, (int) Math.min(n, 100)).stream().map(DeliveryView::of).toList();
    }

    /** → 204; no such hook → 404. */
    @DELETE
    @Path("{hook}")
    public Response delete(@PathParam("app") String app, @PathParam("hook") String hook) {
        hooks.delete(current.get(), app, hook);
        return Response.noContent().build();
    }
}
