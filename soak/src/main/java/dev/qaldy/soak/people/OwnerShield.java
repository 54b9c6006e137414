package dev.qaldy.soak.people;

import dev.qaldy.drill.cast.Visitor;
import dev.qaldy.soak.history.Facts;
import dev.qaldy.soak.history.Kind;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The owner changing the limited app's shield: its per-client limit up and down, keeping its own
 * daily limit (so a reached daily limit stays reached), and now and then adding a User-Agent rule.
 */
final class OwnerShield extends Actor {

    private final Visitor owner;
    private final String app;

    OwnerShield(long seed, Acts acts, AtomicBoolean running, Visitor owner, String app) {
        super("owner-shield", seed, acts, running);
        this.owner = owner;
        this.app = app;
    }

    @Override
    void step() {
        int perClient = 120 + 60 * random.nextInt(5);
        String agents = random.nextBoolean() ? "[\"(?i)soak-crawler\"]" : "[]";
        acts.api(name, Kind.SHIELD, owner, gate(), "PUT", "/apps/" + app + "/shield", "{\"perAppPerDay\":" + SoakCast.DAILY_LIMIT
                + ",\"perClientPerMinute\":" + perClient + ",\"blockedUserAgents\":" + agents + "}", app,
                Map.of(Facts.PER_APP_PER_DAY, Integer.toString(SoakCast.DAILY_LIMIT)));
    }

    @Override
    double[] pause() {
        return new double[] {40, 80};
    }
}
