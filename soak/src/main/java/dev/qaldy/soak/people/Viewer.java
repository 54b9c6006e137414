package dev.qaldy.soak.people;

import dev.qaldy.drill.cast.Visitor;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A person who opens apps with their session, through either gate, about once a second: the
 * viewers of shared apps, the payer on their own app over the cap, the owner on the app with a
 * daily limit. Now and then (or when the gate no longer knows the session) they open the app
 * again from the console: a new ticket and a new session.
 */
final class Viewer extends Actor {

    private final Visitor who;
    private final List<String> apps;
    private final double[] pace;

    Viewer(String name, long seed, Acts acts, AtomicBoolean running, Visitor who, List<String> apps, double[] pace) {
        super(name, seed, acts, running);
        this.who = who;
        this.apps = List.copyOf(apps);
        this.pace = pace.clone();
    }

    @Override
    void step() {
        String app = pick(apps);
        String gate = gate();
        boolean again = random.nextDouble() < 0.04;
        if (again || who.cookie(app) == null) {
            acts.signInto(name, who, gate, app, Map.of());
            return;
        }
        Acts.Did seen = acts.open(name, who, gate, app, pick(List.of(Pages.PAGES)), Map.of(), Map.of());
        if (seen.seen().status() == 401 || seen.seen().status() == 302) {
            who.useCookie(app, null); // the session is no longer good: open it again from the console next time
        }
    }

    @Override
    double[] pause() {
        return pace;
    }
}
