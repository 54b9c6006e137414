package dev.qaldy.soak.people;

import dev.qaldy.drill.cast.Json;
import dev.qaldy.drill.cast.Visitor;
import dev.qaldy.soak.history.Facts;
import dev.qaldy.soak.history.Kind;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The owner sharing an app and revoking it, one person at a time, through either gate. The plan
 * is the seed's alone: it flips the person it picks from shared to revoked and back as the plan
 * last left them, whatever the API answered (a share of someone shared gets 409, which is fine).
 */
final class OwnerSharing extends Actor {

    private final Visitor owner;
    private final String app;
    private final List<Visitor> people;
    private final Map<String, Boolean> planned = new HashMap<>();

    OwnerSharing(long seed, Acts acts, AtomicBoolean running, Visitor owner, String app, List<Visitor> people) {
        super("owner-sharing", seed, acts, running);
        this.owner = owner;
        this.app = app;
        this.people = List.copyOf(people);
    }

    @Override
    void step() {
        Visitor who = pick(people);
        boolean shared = planned.getOrDefault(who.email, true);
        if (shared) {
            acts.api(name, Kind.REVOKE, owner, gate(), "DELETE", "/apps/" + app + "/shares/" + who.email, null, app,
                    Map.of(Facts.SUBJECT, who.email));
        } else {
            acts.api(name, Kind.SHARE, owner, gate(), "POST", "/apps/" + app + "/shares", "{\"email\":" + Json.quote(who.email) + "}", app,
                    Map.of(Facts.SUBJECT, who.email));
        }
        planned.put(who.email, !shared);
    }

    @Override
    double[] pause() {
        return new double[] {4, 9};
    }
}
