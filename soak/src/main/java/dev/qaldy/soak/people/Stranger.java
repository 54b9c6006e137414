package dev.qaldy.soak.people;

import dev.qaldy.drill.cast.Visitor;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A person with a session on an app's origin (anyone may get a ticket) whom the owner never
 * shared it with: the gate must refuse them (403, or 503 while the API fails), never serve them;
 * and the same session sent to another app, which it was not made for.
 */
final class Stranger extends Actor {

    private final Visitor who;
    private final String app;
    private final String other;

    Stranger(long seed, Acts acts, AtomicBoolean running, Visitor who, String app, String other) {
        super("stranger", seed, acts, running);
        this.who = who;
        this.app = app;
        this.other = other;
    }

    @Override
    void step() {
        if (who.cookie(app) == null) {
            acts.signInto(name, who, gate(), app, Map.of());
            return;
        }
        if (random.nextDouble() < 0.3) {
            acts.open(name, who, gate(), other, "/", Map.of("Cookie", who.cookie(app)), Map.of(dev.qaldy.soak.history.Facts.SESSION_APP, app));
        } else {
            acts.open(name, who, gate(), app, "/", Map.of(), Map.of());
        }
    }

    @Override
    double[] pause() {
        return new double[] {1.5, 4};
    }
}
