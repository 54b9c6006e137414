package dev.qaldy.soak.people;

import dev.qaldy.drill.cast.Json;
import dev.qaldy.drill.cast.Visitor;
import dev.qaldy.drill.cell.DrillError;
import dev.qaldy.soak.history.Facts;
import dev.qaldy.soak.history.Kind;
import jakarta.json.JsonObject;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The payer's account, put over its cap and woken again by its owner, turn and turn about: a cap
 * of 0 cents (the free allowance only) with usage of the whole allowance reported as a gate
 * reports it, then a raise, then 0 again; after each change the billing view, as the API says it
 * (asleep or not).
 */
final class OwnerCap extends Actor {

    /** A cap that wakes the account (cents). */
    static final int RAISED_CENTS = 500;

    private final Visitor payer;
    private final String app;
    private boolean raised;
    private boolean started;

    OwnerCap(long seed, Acts acts, AtomicBoolean running, Visitor payer, String app) {
        super("owner-cap", seed, acts, running);
        this.payer = payer;
        this.app = app;
    }

    @Override
    void step() {
        if (!started) {
            started = true; // the set-up left the account asleep: let the payer find it so for a while first
            return;
        }
        raised = !raised;
        cap(acts, name, payer, gate(), raised ? RAISED_CENTS : 0);
        waitWhileRunning(2000);
        billing(acts, name, payer, gate());
    }

    @Override
    double[] pause() {
        return new double[] {35, 70};
    }

    /**
     * Cap 0, then usage of the whole free allowance for {@code app}, then the billing view;
     * {@link DrillError} when {@code strict} and a step fails (the set-up).
     */
    static void overTheCap(Acts acts, String actor, Visitor payer, String app, boolean strict) {
        Acts.Did cap = cap(acts, actor, payer, "gate", 0);
        if (cap.seen().status() != 200) {
            if (strict) {
                throw new DrillError("the payer's cap of 0: " + cap.seen().summary());
            }
            return;
        }
        JsonObject view = Json.object(cap.seen().body(), "billing");
        long limitMillicents = view.getJsonNumber("limitCents").longValue() * 1000;
        long price = view.getJsonObject("prices").getJsonNumber("requestMillicents").longValue();
        long requests = Math.max(1, (limitMillicents + price - 1) / Math.max(1, price));
        String batch = UUID.randomUUID().toString();
        Acts.Did billed = null;
        for (int attempt = 0; attempt < 5; attempt++) { // the same batch id: billed once however often it is sent
            billed = acts.usage(actor, batch, app, requests, payer.email, Map.of());
            if (billed.seen().status() == 200) {
                break;
            }
            Actor.sleep(2000);
        }
        if (strict && billed.seen().status() != 200) {
            throw new DrillError("reporting the payer's usage: " + billed.seen().summary());
        }
        billing(acts, actor, payer, "gate");
    }

    static Acts.Did cap(Acts acts, String actor, Visitor payer, String gate, int cents) {
        return acts.api(actor, Kind.CAP, payer, gate, "PUT", "/billing/cap", "{\"capCents\":" + cents + "}", "",
                Map.of(Facts.ACCOUNT, payer.email));
    }

    static Acts.Did billing(Acts acts, String actor, Visitor payer, String gate) {
        return acts.api(actor, Kind.BILLING, payer, gate, "GET", "/billing", null, "", Map.of(Facts.ACCOUNT, payer.email));
    }
}
