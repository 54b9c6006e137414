package dev.qaldy.drill.rows;

import static dev.qaldy.drill.rows.Ask.check;
import static dev.qaldy.drill.rows.Ask.eventually;

import dev.qaldy.drill.cast.Cast;
import dev.qaldy.drill.cast.Visitor;
import java.time.Duration;
import java.util.List;
import java.util.UUID;

/**
 * The catch-up: what the same people see once the control plane is back (the console's tab and
 * the schedule aside). Each check may ask again for {@code wait}: the first calls after a restart
 * can still fail while the gate's background probe finds the API back.
 */
public final class AfterReturn {

    private final Cast cast;
    private final Duration wait;

    /** @param wait how long each person may retry before the check fails */
    public AfterReturn(Cast cast, Duration wait) {
        this.cast = cast;
        this.wait = wait;
    }

    /** Every person's check after the return; {@code newcomer} is this pass's new person. */
    public List<Check> all(Visitor newcomer) {
        String when = Check.AFTER;
        String key = "drill-" + UUID.randomUUID();
        return List.of(
                eventually(SeedRow.APPS_ALREADY_OPENED, when, cast.viewer.role, "200, access asked of the API again",
                        () -> cast.viewer.get(cast.app, "/"), s -> s.status() == 200 && s.header("x-qaldy-access").equals("asked"),
                        wait),
                eventually(SeedRow.SIGN_IN, when, "a person signing in", "201: signed in", cast.viewer::signIn,
                        s -> s.status() == 201, wait),
                eventually(SeedRow.SIGN_IN, when, newcomer.role, "200: opens the app for the first time, the API asked",
                        () -> newcomer.get(cast.app, "/"), s -> s.status() == 200 && s.header("x-qaldy-access").equals("asked"),
                        wait),
                eventually(SeedRow.WEBHOOKS, when, "a webhook sender, retrying", "202: accepted",
                        () -> cast.deliverWebhook(key), s -> s.status() == 202, wait),
                eventually(SeedRow.BUILDS, when, "a person starting a build", "202: the build is accepted",
                        () -> cast.owner.upload(cast.app, cast.bundle), s -> s.status() == 202, wait),
                check(SeedRow.SPENDING_CAP, when, cast.payer.role, "still 503 asleep: the API's state says so too",
                        () -> cast.payer.get(cast.cappedApp, "/"),
                        s -> s.status() == 503 && s.header("x-qaldy-cap").equals("asleep")));
    }
}
