package dev.qaldy.control.platform.boundary;

import dev.qaldy.contract.keys.ServiceDirection;
import dev.qaldy.control.platform.control.NotPermitted;
import dev.qaldy.control.platform.control.NotSignedIn;
import dev.qaldy.control.platform.control.ServiceKeys;
import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.ws.rs.Priorities;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerRequestFilter;
import jakarta.ws.rs.container.ResourceInfo;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.ext.Provider;
import java.lang.reflect.AnnotatedElement;
import java.util.EnumSet;
import java.util.Set;

/**
 * Lets only the cell's services into {@link ServiceCall} resources, each with the credential of a
 * direction the resource accepts: none or an unknown one → 401 problem; one of the cell's made for
 * another direction (the runtime host's at a gate's endpoint) → 403 problem; both logged per client
 * address and minute ({@link ServiceKeys#refused}), the 403 naming the credential and the path.
 */
@Provider
@ServiceCall
@Priority(Priorities.AUTHENTICATION)
@ApplicationScoped
public class ServiceTokenFilter implements ContainerRequestFilter {

    /** The header the gate and the runtime host send. */
    public static final String HEADER = ServiceDirection.HEADER;

    @Inject
    ServiceKeys keys;

    @Context
    ResourceInfo resource;

    @Context
    HttpServletRequest servletRequest;

    @Override
    public void filter(ContainerRequestContext request) {
        ServiceDirection caller = keys.identify(request.getHeaderString(HEADER)).orElse(null);
        if (caller == null) {
            keys.refused(call(request) + " without the service token", servletRequest.getRemoteAddr());
            throw new NotSignedIn("this endpoint is for the cell's services: a valid " + HEADER + " is required");
        }
        Set<ServiceDirection> accepted = accepted();
        if (!accepted.contains(caller)) {
            keys.refused(call(request) + " with the " + caller.fileName() + " credential (it accepts " + accepted + ")",
                    servletRequest.getRemoteAddr());
            throw new NotPermitted("the " + caller.caller() + "'s credential is not made for this endpoint");
        }
    }

    /** "METHOD /path", for the refusal's log line only. */
    private static String call(ContainerRequestContext request) {
        return request.getMethod() + " /" + request.getUriInfo().getPath();
    }

    private Set<ServiceDirection> accepted() {
        ServiceDirection[] method = directions(resource.getResourceMethod());
        ServiceDirection[] type = directions(resource.getResourceClass());
        ServiceDirection[] named = method != null && method.length > 0 ? method : type;
        return named == null || named.length == 0 ? EnumSet.noneOf(ServiceDirection.class) : EnumSet.of(named[0], named);
    }

    private static ServiceDirection[] directions(AnnotatedElement element) {
        ServiceCall call = element == null ? null : element.getAnnotation(ServiceCall.class);
        return call == null ? null : call.value();
    }
}
