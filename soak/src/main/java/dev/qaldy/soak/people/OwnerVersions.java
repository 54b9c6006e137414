package dev.qaldy.soak.people;

import dev.qaldy.soak.Soak;
import dev.qaldy.drill.cast.Json;
import dev.qaldy.drill.cast.Visitor;
import dev.qaldy.soak.history.Facts;
import dev.qaldy.soak.history.Kind;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The owner publishing new versions of an app (a build, then promoting it), and every few
 * versions deleting the app and making it again under the same name, shared again with its
 * viewers: none of the deleted app's versions may come back.
 */
final class OwnerVersions extends Actor {

    private final Visitor owner;
    private final String app;
    private final List<Visitor> viewers;
    private int untilDeletion;
    private boolean deleted;

    OwnerVersions(long seed, Acts acts, AtomicBoolean running, Visitor owner, String app, List<Visitor> viewers) {
        super("owner-versions", seed, acts, running);
        this.owner = owner;
        this.app = app;
        this.viewers = List.copyOf(viewers);
        this.untilDeletion = 2 + random.nextInt(3);
    }

    @Override
    void step() {
        if (deleted) {
            Acts.Did made = Publisher.create(acts, name, owner, gate(), app, false, Map.of());
            if (made.seen().status() == 201 || made.seen().status() == 409) {
                deleted = false;
                for (Visitor v : viewers) {
                    acts.api(name, Kind.SHARE, owner, gate(), "POST", "/apps/" + app + "/shares", "{\"email\":" + Json.quote(v.email) + "}",
                            app, Map.of(Facts.SUBJECT, v.email));
                }
                untilDeletion = 2 + random.nextInt(3);
            }
            return;
        }
        if (untilDeletion-- <= 0) {
            Acts.Did gone = acts.api(name, Kind.DELETE_APP, owner, gate(), "DELETE", "/apps/" + app, null, app, Map.of());
            deleted = gone.seen().status() == 204 || gone.seen().status() == 404;
            return;
        }
        Publisher.publish(acts, name, owner, app, false, Map.of(), Soak.CLOCK.millis() + 90_000);
    }

    @Override
    double[] pause() {
        return new double[] {12, 25};
    }
}
