package dev.qaldy.control.apps.boundary;

import dev.qaldy.contract.keys.ServiceDirection;
import dev.qaldy.control.apps.entity.AppVisibility;
import dev.qaldy.control.platform.boundary.ServiceCall;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

/** {@code /api/v1/internal/apps/{app}/visibility}: may anyone open the app without signing in, for the gate (service token). */
@Path("internal/apps/{app}/visibility")
@ServiceCall(ServiceDirection.GATE_TO_CONTROL)
@RequestScoped
@Produces(MediaType.APPLICATION_JSON)
public class VisibilityResource {

    @Inject
    Apps apps;

    /** → {@code {app, kind, visibility: "public"|"private", sharingVersion, accountId}}; no such app → 404. */
    @GET
    public AppVisibility visibility(@PathParam("app") String app) {
        return apps.visibility(app);
    }
}
