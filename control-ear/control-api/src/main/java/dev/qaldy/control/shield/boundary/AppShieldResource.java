package dev.qaldy.control.shield.boundary;

import dev.qaldy.control.platform.boundary.CurrentSession;
import dev.qaldy.control.platform.boundary.JsonBody;
import dev.qaldy.control.platform.boundary.SignedIn;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.io.InputStream;

/**
 * {@code /api/v1/apps/{app}/shield}: the app's own shield settings (owner only). The gates fetch
 * changes within {@code qaldy.gate.shield.refresh} (15 s) and keep them while the API is down.
 */
@Path("apps/{app}/shield")
@SignedIn
@RequestScoped
public class AppShieldResource {

    @Inject
    Shields shields;

    @Inject
    CurrentSession current;

    /** → 200 the settings (numbers null where the plan's value applies). */
    @GET
    @Produces(MediaType.APPLICATION_JSON)
    public Response show(@PathParam("app") String app) {
        return json(shields.show(current.get(), app));
    }

    /**
     * {@code {perClientPerMinute?, perAppPerMinute?, perAppPerDay?, blockedUserAgents?:[regex], deniedCidrs?:[cidr], dayZone?}}
     * replaces the settings → 200 the new settings; a bad value (e.g. a {@code dayZone} that is not an
     * IANA zone name such as {@code Europe/Berlin}) or unknown field → 400 problem JSON.
     */
    @PUT
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces(MediaType.APPLICATION_JSON)
    public Response set(@PathParam("app") String app, InputStream body) {
        return json(shields.set(current.get(), app, ShieldJson.read(JsonBody.read(body).json())));
    }

    private static Response json(Shields.View view) {
        return Response.ok(ShieldJson.of(view).toString(), MediaType.APPLICATION_JSON).header("Cache-Control", "no-store").build();
    }
}
