package dev.qaldy.soak.people;

import dev.qaldy.soak.Soak;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Everyone who works while the faults come and go, one thread each, at a modest pace (about six
 * requests a second in all, on a machine that also runs the cell): viewers, a stranger, a person
 * who signs out, the site's visitors and a bot, the payer, the owner's hands (sharing, versions,
 * the site's kind, the shield, the cap) and two webhook senders. Each plan comes from the seed.
 */
public final class Population {

    private final AtomicBoolean running = new AtomicBoolean(true);
    private final List<Actor> actors = new ArrayList<>();
    private final List<Thread> threads = new ArrayList<>();

    public Population(long seed, Acts acts, SoakCast cast) {
        AtomicBoolean r = running;
        int i = 1;
        for (var v : cast.viewers) {
            actors.add(new Viewer("viewer-" + i++, seed, acts, r, v, List.of(cast.steady, cast.steady, cast.shared, cast.versions),
                    new double[] {0.7, 1.8}));
        }
        actors.add(new Viewer("payer", seed, acts, r, cast.payer, List.of(cast.capped), new double[] {1.5, 3}));
        actors.add(new Viewer("limited", seed, acts, r, cast.owner, List.of(cast.limited), new double[] {0.5, 1}));
        actors.add(new Stranger(seed, acts, r, cast.stranger, cast.shared, cast.versions));
        actors.add(new SignsOut(seed, acts, r, cast.signer, cast.shared));
        actors.add(new Anonymous("site-visitor", seed, acts, r, List.of(cast.site), false));
        actors.add(new Anonymous("bot", seed, acts, r, List.of(cast.site, cast.shared), true));
        List<dev.qaldy.drill.cast.Visitor> shareable = new ArrayList<>(cast.viewers);
        shareable.add(cast.signer);
        actors.add(new OwnerSharing(seed, acts, r, cast.owner, cast.shared, shareable));
        actors.add(new OwnerVersions(seed, acts, r, cast.owner, cast.versions, cast.viewers.subList(0, 2)));
        actors.add(new OwnerSite(seed, acts, r, cast.owner, cast.site));
        actors.add(new OwnerShield(seed, acts, r, cast.owner, cast.limited));
        actors.add(new OwnerCap(seed, acts, r, cast.payer, cast.capped));
        cast.hookSecrets.forEach((hook, secret) -> actors.add(new WebhookSender(seed, acts, r, cast.hooks, hook, secret)));
    }

    public void start() {
        for (Actor a : actors) {
            Thread t = new Thread(a, "soak-" + a.name);
            t.setDaemon(true);
            threads.add(t);
            t.start();
        }
    }

    /**
     * Tells everyone to stop and waits for them (at most {@code wait}): each ends its step, the
     * webhook senders retry their delivery under way to its end.
     */
    public void stop(Duration wait) {
        running.set(false);
        long deadline = Soak.CLOCK.millis() + wait.toMillis();
        for (Thread t : threads) {
            try {
                t.join(Math.max(1, deadline - Soak.CLOCK.millis()));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    /** "viewer-1: 3 steps threw" lines, for the report. */
    public List<String> stumbles() {
        return actors.stream().filter(a -> a.stumbles.get() > 0).map(a -> a.name + ": " + a.stumbles.get() + " steps threw").toList();
    }
}
