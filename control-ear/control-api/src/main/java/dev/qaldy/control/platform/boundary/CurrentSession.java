package dev.qaldy.control.platform.boundary;

import dev.qaldy.contract.session.Session;
import jakarta.enterprise.context.RequestScoped;

/** The verified session of the current request, set by {@link SessionFilter}. */
@RequestScoped
public class CurrentSession {

    private Session session;

    void set(Session session) {
        this.session = session;
    }

    /** The signed-in person's session; only resources marked {@link SignedIn} may ask. */
    public Session get() {
        if (session == null) {
            throw new IllegalStateException("no session: is the resource marked @SignedIn?");
        }
        return session;
    }
}
