package dev.qaldy.drill.cast;

import dev.qaldy.drill.cell.CellControl;
import dev.qaldy.drill.cell.DrillError;
import dev.qaldy.drill.cell.Http;
import dev.qaldy.drill.cell.Seen;
import jakarta.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.UUID;

/**
 * The people of the seed's table, made on the running cell before the first outage, each with a
 * name of this run so drills can repeat on one cell: an owner who publishes examples/guestbook as
 * an app of this run, with a webhook and a schedule; a viewer it is shared with who opens it; a
 * payer whose own copy of the app sleeps at the spending cap. A new person (never seen by the gate)
 * is made for each pass.
 */
public final class Cast {

    /** The webhook's name on the drill's app. */
    public static final String HOOK = "drill";
    /** The job the webhook and the schedule run (examples/guestbook's server.js). */
    public static final String JOB = "digest";

    private final CellControl cell;
    private final Http http;
    private final String stamp;
    public final String app;
    public final String cappedApp;
    /** A public site of this run (kind "site": no sign-in), with one page per pass never opened before it. */
    public final String site;
    public final byte[] bundle;
    public Visitor owner;
    public Visitor viewer;
    public Visitor payer;
    public long scheduleId;
    private String hookSecret;

    /**
     * @param cell  the running cell
     * @param http  the drill's HTTP client
     * @param stamp this run's name part (lower-case letters and digits)
     */
    public Cast(CellControl cell, Http http, String stamp) {
        this.cell = cell;
        this.http = http;
        this.stamp = stamp;
        this.app = "drill-" + stamp;
        this.cappedApp = "drill-" + stamp + "-capped";
        this.site = "drill-" + stamp + "-site";
        this.bundle = Zips.of(cell.root().resolve("examples/guestbook"), app);
    }

    /**
     * Makes everyone and everything, through the public API; {@link DrillError} when a step fails.
     *
     * @param cron     the schedule's cron (the drill's outage must span one of its ticks)
     * @param capWait  how long to wait for the gate to put the payer's app to sleep
     */
    public void prepare(String cron, Duration capWait) {
        owner = Visitor.signUp("the app's owner", email("owner"), cell, http);
        publish(owner, app);
        viewer = Visitor.signUp("a person who already opened the app", email("viewer"), cell, http);
        share(viewer);
        viewer.openApp(app);
        Visitor.expect(viewer.get(app, "/"), 200, "the viewer's first visit");
        owner.openApp(app);
        JsonObject hook = Visitor.expect(owner.api("POST", "/apps/" + app + "/hooks",
                "{\"name\":\"" + HOOK + "\",\"job\":\"" + JOB + "\"}"), 201, "a webhook on " + app);
        hookSecret = hook.getString("secret");
        JsonObject schedule = Visitor.expect(owner.api("POST", "/apps/" + app + "/schedules",
                "{\"cron\":" + Json.quote(cron) + ",\"job\":\"" + JOB + "\"}"), 201, "a schedule on " + app);
        scheduleId = schedule.getJsonNumber("id").longValue();

        Visitor.expect(owner.api("POST", "/apps", "{\"name\":" + Json.quote(site) + ",\"kind\":\"site\"}"), 201,
                "creating the public site " + site);
        build(owner, site, siteBundle(site));

        payer = Visitor.signUp("a person over the spending cap", email("payer"), cell, http);
        publish(payer, cappedApp);
        payer.openApp(cappedApp);
        Visitor.expect(payer.get(cappedApp, "/"), 200, "the payer's first visit");
        putToSleep(capWait);
    }

    /** A person the gate never saw: signed up, the app shared, a session cookie, but never a page. */
    public Visitor newcomer(String pass) {
        Visitor v = Visitor.signUp("a new person (never opened the app)", email("new-" + pass), cell, http);
        share(v);
        v.openApp(app);
        return v;
    }

    /** A signed delivery to the drill's webhook, as a sender would make it. */
    public Seen deliverWebhook(String idempotencyKey) {
        byte[] body = ("{\"note\":\"drill " + idempotencyKey + "\"}").getBytes(StandardCharsets.UTF_8);
        return Hooks.deliver(http, cell.publicHost(), app, HOOK, hookSecret, idempotencyKey, body);
    }

    /** The drill's schedule as the API shows it (nextTick, lastFiredTick). */
    public JsonObject schedule() {
        Seen seen = owner.api("GET", "/apps/" + app + "/schedules", null);
        Visitor.expect(seen, 200, "the schedules of " + app);
        try (var reader = jakarta.json.Json.createReader(new java.io.StringReader(seen.body()))) {
            return reader.readArray().getValuesAs(JsonObject.class).stream()
                    .filter(s -> s.getJsonNumber("id").longValue() == scheduleId).findFirst()
                    .orElseThrow(() -> new DrillError("the drill's schedule " + scheduleId + " is gone"));
        }
    }

    /** The app's runs, newest first, as the API lists them (at most 200). */
    public java.util.List<JsonObject> runs() {
        Seen seen = owner.api("GET", "/apps/" + app + "/runs?limit=200", null);
        JsonObject page = Visitor.expect(seen, 200, "the runs of " + app);
        return page.getJsonArray("runs").getValuesAs(JsonObject.class);
    }

    private String email(String who) {
        return "drill-" + stamp + "-" + who + "@drill.example";
    }

    private void publish(Visitor who, String name) {
        Visitor.expect(who.api("POST", "/apps", "{\"name\":" + Json.quote(name) + "}"), 201, "creating " + name);
        build(who, name, name.equals(app) ? bundle : Zips.of(cell.root().resolve("examples/guestbook"), name));
    }

    /** Uploads {@code zip} as a build of {@code name}, waits for it and makes it live. */
    private void build(Visitor who, String name, byte[] zip) {
        JsonObject upload = Visitor.expect(who.upload(name, zip), 202, "building " + name);
        long version = upload.getJsonNumber("version").longValue();
        Instant deadline = Instant.now().plusSeconds(120);
        String status = "";
        while (Instant.now().isBefore(deadline)) {
            JsonObject build = Visitor.expect(who.api("GET", "/apps/" + name + "/builds/" + version, null), 200, "build " + version);
            status = build.getString("status", "");
            if (status.equals("succeeded")) {
                Visitor.expect(who.api("PUT", "/apps/" + name + "/live", "{\"version\":" + version + "}"), 200, "publishing " + name);
                return;
            }
            if (status.equals("failed")) {
                throw new DrillError("the build of " + name + " failed: " + build);
            }
            pause(Duration.ofMillis(300));
        }
        throw new DrillError("the build of " + name + " did not end in 120 s (last status: " + status + ")");
    }

    private void share(Visitor with) {
        Visitor.expect(owner.api("POST", "/apps/" + app + "/shares", "{\"email\":" + Json.quote(with.email) + "}"), 201,
                "sharing " + app + " with " + with.email);
    }

    /**
     * Puts the payer's app to sleep at the spending cap: a cap of 0 cents (the free allowance
     * only), then one usage report of exactly the allowance's worth of requests, sent to the
     * control plane with the cell's service token as a gate reports what it counted (the drill
     * cannot make thousands of real requests through the shield's rate limits), then waits for
     * the gate to answer "asleep" with the state the control plane signed.
     */
    private void putToSleep(Duration capWait) {
        Visitor.expect(payer.api("PUT", "/billing/cap", "{\"capCents\":0}"), 200, "the payer's cap of 0");
        JsonObject billing = Visitor.expect(payer.api("GET", "/billing", null), 200, "the payer's billing");
        long limitMillicents = billing.getJsonNumber("limitCents").longValue() * 1000;
        long price = billing.getJsonObject("prices").getJsonNumber("requestMillicents").longValue();
        long requests = Math.max(1, (limitMillicents + price - 1) / Math.max(1, price));
        Seen billed = Usage.report(cell, http, UUID.randomUUID().toString(), cappedApp, requests);
        Visitor.expect(billed, 200, "reporting the payer's usage");
        Instant deadline = Instant.now().plus(capWait);
        Seen last = null;
        while (Instant.now().isBefore(deadline)) {
            last = payer.get(cappedApp, "/");
            if (last.status() == 503 && last.header("x-qaldy-cap").equals("asleep")) {
                return;
            }
            pause(Duration.ofSeconds(1));
        }
        throw new DrillError("the payer's app did not fall asleep at the cap within " + capWait.toSeconds() + " s; last: "
                + (last == null ? "nothing" : last.summary()));
    }

    /** The public site {@code name}'s files: an index, an about page, and a page per pass that nobody opens before it. */
    static byte[] siteBundle(String name) {
        java.util.Map<String, String> files = new java.util.LinkedHashMap<>();
        files.put("qaldy.json", "{\"name\":\"" + name + "\",\"kind\":\"site\"}"); // the control plane refuses another app's name
        for (String page : new String[] {"index", "about", "kill", "db", "cut"}) {
            files.put("public/" + page + ".html", "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\">"
                    + "<title>Drill site</title></head><body><h1>Drill site: " + page + "</h1>"
                    + "<p>A public page of bin/qaldy drill.</p></body></html>\n");
        }
        return Zips.of(files);
    }

    /** An anonymous visitor's GET of {@code path} on the public site (no cookie, no token). */
    public Seen visitSite(String path) {
        return http.send(http.request(cell.appHost(site), path).header("Accept", "text/html").GET().build());
    }

    /**
     * Sleeps until {@code until} has passed, at most 1 s at a time; returns at once when it has. The clock is read
     * once per step (reading it twice, in the check and for the sleep, once gave a -1 ms sleep when the instant
     * passed in between: "timeout value is negative", the drill on Liberty in CI).
     */
    public static void pauseUntil(Instant until) {
        for (long left = Duration.between(Instant.now(), until).toNanos(); left > 0;
                left = Duration.between(Instant.now(), until).toNanos()) {
            pause(Duration.ofMillis(Math.min(1000, (left + 999_999) / 1_000_000))); // whole ms, rounded up: never short
        }
    }

    /** Sleeps {@code d}; {@link DrillError} when interrupted. */
    public static void pause(Duration d) {
        try {
            Thread.sleep(d.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new DrillError("interrupted", e);
        }
    }
}
