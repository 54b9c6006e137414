package dev.qaldy.control.platform.boundary;

import dev.qaldy.control.platform.control.NotSignedIn;
import dev.qaldy.control.platform.control.ServiceToken;
import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.Priorities;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerRequestFilter;
import jakarta.ws.rs.ext.Provider;

/** Lets only the cell's services into {@link ServiceCall} resources: a missing or wrong service token → 401 problem. */
@Provider
@ServiceCall
@Priority(Priorities.AUTHENTICATION)
@ApplicationScoped
public class ServiceTokenFilter implements ContainerRequestFilter {

    /** The header the gate and the runtime host send. */
    public static final String HEADER = "X-Qaldy-Service-Token";

    @Inject
    ServiceToken token;

    @Override
    public void filter(ContainerRequestContext request) {
        if (!token.matches(request.getHeaderString(HEADER))) {
            throw new NotSignedIn("this endpoint is for the cell's services: a valid " + HEADER + " is required");
        }
    }
}
