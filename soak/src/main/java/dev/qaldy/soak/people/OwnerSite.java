package dev.qaldy.soak.people;

import dev.qaldy.drill.cast.Visitor;
import dev.qaldy.soak.history.Facts;
import dev.qaldy.soak.history.Kind;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The owner turning the public site private (sign-in) and public again: once the API answered
 * the first, no visitor without a session may be served it until the second is sent.
 */
final class OwnerSite extends Actor {

    private final Visitor owner;
    private final String site;
    private boolean isPublic = true;

    OwnerSite(long seed, Acts acts, AtomicBoolean running, Visitor owner, String site) {
        super("owner-site", seed, acts, running);
        this.owner = owner;
        this.site = site;
    }

    @Override
    void step() {
        isPublic = !isPublic;
        String kind = isPublic ? "site" : "app";
        acts.api(name, Kind.KIND, owner, gate(), "PUT", "/apps/" + site + "/kind", "{\"kind\":\"" + kind + "\"}", site,
                Map.of(Facts.APP_KIND, kind));
    }

    @Override
    double[] pause() {
        return isPublic ? new double[] {30, 60} : new double[] {8, 20};
    }
}
