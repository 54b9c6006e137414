package dev.qaldy.drill.rows;

import static dev.qaldy.drill.rows.Ask.check;
import static dev.qaldy.drill.rows.Ask.clearRefusal;

import dev.qaldy.drill.cast.Cast;
import dev.qaldy.drill.cast.Visitor;
import dev.qaldy.drill.cell.CellControl;
import dev.qaldy.drill.cell.Http;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * What each person of the seed's table sees while the control plane is down (the console's tab
 * and the schedule aside: {@code ConsoleWatch} and {@link ScheduleCheck}), one {@link Check} each,
 * judged as the seed says.
 */
public final class DuringOutage {

    private final CellControl cell;
    private final Http http;
    private final Cast cast;

    public DuringOutage(CellControl cell, Http http, Cast cast) {
        this.cell = cell;
        this.http = http;
        this.cast = cast;
    }

    /** Every person's check; {@code newcomer} is this pass's person the gate never saw. */
    public List<Check> all(Visitor newcomer) {
        String when = Check.DURING;
        return List.of(
                check(SeedRow.APPS_ALREADY_OPENED, when, cast.viewer.role, "200, the app's page, from the gate's copy",
                        () -> cast.viewer.get(cast.app, "/"),
                        s -> s.status() == 200 && s.body().contains("Guestbook") && s.header("x-qaldy-access").endsWith("copy")
                                && s.ms() < Ask.PROMPT_MS),
                check(SeedRow.APPS_ALREADY_OPENED, when, cast.viewer.role + ", its server code",
                        "the app's server.js still runs and answers itself (X-Qaldy-Code; its notes are read from the runtime"
                                + " host's replica, or the guestbook says it cannot read them)",
                        () -> cast.viewer.get(cast.app, "/api/entries", Map.of("Accept", "application/json")),
                        s -> !s.header("x-qaldy-code").isEmpty()
                                && (s.status() == 200 || s.status() == 503 && s.body().contains("guestbook cannot read its notes"))
                                && s.ms() < Ask.PROMPT_MS),
                check(SeedRow.SIGN_IN, when, newcomer.role, "503 “Temporarily unavailable”, never 200, never 403",
                        () -> newcomer.get(cast.app, "/"),
                        s -> s.status() == 503 && s.body().contains("Temporarily unavailable") && !s.header("retry-after").isEmpty()),
                check(SeedRow.SIGN_IN, when, "a person signing in", "503 with Retry-After and a clear message, no stack trace",
                        cast.viewer::signIn, s -> clearRefusal(s, 503)),
                check(SeedRow.WEBHOOKS, when, "a webhook sender",
                        "202 {\"queued\":true}: checked and queued at the gate (issue 17), at once",
                        () -> cast.deliverWebhook("drill-" + UUID.randomUUID()),
                        s -> s.status() == 202 && s.body().contains("\"queued\":true") && s.ms() < Ask.PROMPT_MS),
                check(SeedRow.CONSOLE, when, "a person opening the console", "the console's page loads (200) from the gate",
                        () -> http.send(http.request(cell.publicHost(), "/console/").header("Accept", "text/html").GET().build()),
                        s -> s.status() == 200 && s.header("content-type").contains("html")),
                check(SeedRow.BUILDS, when, "a person starting a build", "503 with Retry-After and a clear message",
                        () -> cast.owner.upload(cast.app, cast.bundle), s -> clearRefusal(s, 503)),
                check(SeedRow.SPENDING_CAP, when, cast.payer.role, "503 “This app is asleep” (X-Qaldy-Cap: asleep), never served",
                        () -> cast.payer.get(cast.cappedApp, "/"),
                        s -> s.status() == 503 && s.header("x-qaldy-cap").equals("asleep") && s.body().contains("asleep")),
                check(SeedRow.DATA_API, when, cast.viewer.role + ", reading the notes",
                        "200 from the runtime host's replica (X-Qaldy-Data: replica, with its as-of time), at once",
                        () -> cast.viewer.get(cast.app, "/api/entries", Map.of("Accept", "application/json")),
                        s -> s.status() == 200 && s.header("x-qaldy-data").equals("replica") && !s.header("x-qaldy-data-as-of").isEmpty()
                                && s.body().contains("\"asOf\"") && s.ms() < Ask.PROMPT_MS),
                check(SeedRow.DATA_API, when, cast.viewer.role + ", signing the guestbook", "503 with Retry-After: writes need the API",
                        () -> cast.viewer.postJson(cast.app, "/api/sign", "{\"name\":\"Drill\",\"message\":\"while down\"}"),
                        s -> clearRefusal(s, 503)),
                check(SeedRow.SHIELD, when, "a scanner bot (User-Agent sqlmap)", "403 from the shield (X-Qaldy-Shield)",
                        () -> cast.viewer.get(cast.app, "/", Map.of("User-Agent", "sqlmap/1.8")),
                        s -> s.status() == 403 && !s.header("x-qaldy-shield").isEmpty()));
    }

    /**
     * The access memory itself (seed: "a person who already opened an app keeps it for 30 min"):
     * asked once the gate's freshness window has passed since its last ask about this person, so
     * the gate cannot answer from its fresh copy and must use its outage copy. Call it during the
     * outage no earlier than {@link Visitor#lastAsked()} plus {@code freshness} (and a margin).
     *
     * @param freshness the gate's freshness window ({@code qaldy.gate.access-freshness}, PT30S)
     * @param since     how long ago, in s, the gate last asked about the person, for the report
     */
    public Check pastFreshness(java.time.Duration freshness, long since) {
        return check(SeedRow.APPS_ALREADY_OPENED, Check.DURING,
                cast.viewer.role + ", " + since + " s after the gate last asked (past its " + freshness.toSeconds()
                        + " s freshness window)",
                "200, the app's page, from the gate's outage copy (X-Qaldy-Access: outage-copy)",
                () -> cast.viewer.get(cast.app, "/"),
                s -> s.status() == 200 && s.body().contains("Guestbook") && s.header("x-qaldy-access").equals("outage-copy")
                        && s.ms() < Ask.PROMPT_MS);
    }
}
