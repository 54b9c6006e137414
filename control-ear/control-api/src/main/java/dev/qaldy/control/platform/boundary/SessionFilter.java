package dev.qaldy.control.platform.boundary;

import dev.qaldy.control.people.boundary.Sessions;
import dev.qaldy.control.platform.control.NotSignedIn;
import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.Priorities;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerRequestFilter;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.ext.Provider;

/**
 * Verifies {@code Authorization: Bearer <token>} with the cell's public key on every
 * {@link SignedIn} resource; a missing, forged, foreign, expired or signed-out token → 401 problem.
 */
@Provider
@SignedIn
@Priority(Priorities.AUTHENTICATION)
@ApplicationScoped
public class SessionFilter implements ContainerRequestFilter {

    private static final String BEARER = "Bearer ";

    @Inject
    Sessions sessions;

    @Inject
    CurrentSession current;

    @Override
    public void filter(ContainerRequestContext request) {
        String header = request.getHeaderString(HttpHeaders.AUTHORIZATION);
        if (header == null || !header.regionMatches(true, 0, BEARER, 0, BEARER.length())) {
            throw new NotSignedIn("sign in first: send Authorization: Bearer <session token>");
        }
        current.set(sessions.verify(header.substring(BEARER.length()).trim()));
    }
}
