package dev.qaldy.soak.people;

import dev.qaldy.drill.cast.Visitor;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A person who uses an app, signs out on its origin through one gate, and keeps sending the old
 * cookie through both (as a stolen cookie would be): once a gate answered that the session is
 * signed out everywhere, no gate may serve it; then they open the app again with a new session.
 */
final class SignsOut extends Actor {

    private final Visitor who;
    private final String app;
    private int left;
    private boolean signedOut;

    SignsOut(long seed, Acts acts, AtomicBoolean running, Visitor who, String app) {
        super("signs-out", seed, acts, running);
        this.who = who;
        this.app = app;
    }

    @Override
    void step() {
        if (who.cookie(app) == null || (signedOut && left <= 0)) {
            if (acts.signInto(name, who, gate(), app, Map.of())) {
                signedOut = false;
                left = 3 + random.nextInt(6);
            }
            return;
        }
        if (!signedOut && left <= 0) {
            acts.signOut(name, who, gate(), app);
            signedOut = true;
            left = 3 + random.nextInt(6);
            return;
        }
        acts.open(name, who, gate(), app, "/", Map.of(), Map.of());
        left--;
    }

    @Override
    double[] pause() {
        return new double[] {1, 2.5};
    }
}
