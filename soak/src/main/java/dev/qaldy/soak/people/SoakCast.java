package dev.qaldy.soak.people;

import dev.qaldy.drill.cast.Json;
import dev.qaldy.drill.cast.Visitor;
import dev.qaldy.drill.cell.DrillError;
import dev.qaldy.soak.history.Facts;
import dev.qaldy.soak.history.Kind;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * The soak's people and apps, made through the public API before the first fault (every call
 * recorded: the checker's model starts from these answers), each named for this run so soaks can
 * repeat on one cell. An owner with six apps: one shared with three viewers and a person who
 * signs out (its sharing changes all the time), one shared with the viewers that never changes
 * (what people already opened must keep working), one whose versions come and go and which is deleted and made again, a public site
 * that turns private and back, one with a daily limit of its own, one with webhooks and schedules;
 * a payer whose account is put over its cap; a stranger with a session but no share; a prober
 * for the recovery probe. {@link DrillError} when a step fails (the soak cannot run).
 */
public final class SoakCast {

    /** The owner's own daily limit on the limited app: small, so the soak reaches it. */
    static final int DAILY_LIMIT = 5;
    static final List<String> HOOKS = List.of("w1", "w2");
    static final String ACTOR = "setup";

    final String stamp;
    final String shared;
    final String steady;
    final String versions;
    final String site;
    final String limited;
    final String hooks;
    final String capped;
    final String probe;
    Visitor owner;
    Visitor payer;
    Visitor prober;
    Visitor stranger;
    Visitor signer;
    final List<Visitor> viewers = new ArrayList<>();
    final Map<String, String> hookSecrets = new LinkedHashMap<>();
    String cron;

    public SoakCast(String stamp) {
        this.stamp = stamp;
        String base = "sk" + stamp;
        shared = base;
        steady = base + "-s";
        versions = base + "-v";
        site = base + "-site";
        limited = base + "-lim";
        hooks = base + "-h";
        capped = base + "-cap";
        probe = base + "-probe";
    }

    /** The apps whose pages the population opens, for the report. */
    public List<String> apps() {
        return List.of(shared, steady, versions, site, limited, hooks, capped, probe);
    }

    String email(String who) {
        return "soak-" + stamp + "-" + who + "@soak.example";
    }

    /** Makes everyone and everything; the API must answer throughout. */
    public void prepare(Acts acts, long deadline) {
        owner = acts.signUp("the owner", email("owner"));
        payer = acts.signUp("a payer over the cap", email("payer"));
        prober = acts.signUp("the recovery prober", email("prober"));
        stranger = acts.signUp("a stranger", email("stranger"));
        signer = acts.signUp("a person who signs out", email("signer"));
        for (int i = 1; i <= 3; i++) {
            viewers.add(acts.signUp("a viewer", email("viewer" + i)));
        }
        for (String app : List.of(shared, steady, versions, limited, hooks)) {
            expect(Publisher.create(acts, ACTOR, owner, "gate", app, false, Map.of()), 201, "creating " + app);
        }
        expect(Publisher.create(acts, ACTOR, owner, "gate", site, true, Map.of()), 201, "creating the site " + site);
        expect(Publisher.create(acts, ACTOR, payer, "gate", capped, false, Map.of()), 201, "creating " + capped);
        expect(Publisher.create(acts, ACTOR, prober, "gate", probe, false, Map.of()), 201, "creating " + probe);
        Map<String, Visitor> owners = new LinkedHashMap<>();
        for (String app : List.of(shared, steady, versions, limited, hooks, site)) {
            owners.put(app, owner);
        }
        owners.put(capped, payer);
        owners.put(probe, prober);
        Map<String, Publisher.Published> uploads = new LinkedHashMap<>(); // all built at once, then each promoted
        owners.forEach((app, who) -> uploads.put(app, published(Publisher.upload(acts, ACTOR, who, app, app.equals(site), Map.of()), app)));
        uploads.forEach((app, up) -> published(Publisher.promote(acts, ACTOR, owners.get(app), app, up, Map.of(), deadline), app));
        for (Visitor v : viewers) {
            share(acts, shared, v);
            share(acts, steady, v);
            share(acts, versions, v);
        }
        share(acts, shared, signer);
        for (String hook : HOOKS) {
            Acts.Did made = expect(acts.api(ACTOR, Kind.SETUP, owner, "gate", "POST", "/apps/" + hooks + "/hooks",
                    "{\"name\":\"" + hook + "\",\"job\":\"" + Pages.JOB + "\"}", hooks, Map.of()), 201, "the webhook " + hook);
            hookSecrets.put(hook, Json.object(made.seen().body(), "hook").getString("secret"));
        }
        cron = "*/5 * * * * *"; // with seconds, where the cell allows it (qaldy.scheduler.allow-seconds)
        Acts.Did schedule = schedule(acts, cron);
        if (schedule.seen().status() == 400) {
            cron = "* * * * *";
            schedule = schedule(acts, cron);
        }
        expect(schedule, 201, "a schedule on " + hooks);
        expect(schedule(acts, cron.replace("*/5", "*/7")), 201, "a second schedule on " + hooks);
        expect(acts.api(ACTOR, Kind.SHIELD, owner, "gate", "PUT", "/apps/" + limited + "/shield",
                "{\"perAppPerDay\":" + DAILY_LIMIT + "}", limited, Map.of(Facts.PER_APP_PER_DAY, Integer.toString(DAILY_LIMIT))), 200,
                "the daily limit of " + limited);
        OwnerCap.overTheCap(acts, ACTOR, payer, capped, true);
        for (Visitor v : viewers) {
            opened(acts, v, shared);
            opened(acts, v, steady);
            opened(acts, v, versions);
        }
        opened(acts, signer, shared);
        opened(acts, stranger, shared);
        opened(acts, owner, limited);
        opened(acts, payer, capped);
    }

    private void share(Acts acts, String app, Visitor with) {
        expect(acts.api(ACTOR, Kind.SHARE, owner, "gate", "POST", "/apps/" + app + "/shares", "{\"email\":" + Json.quote(with.email) + "}",
                app, Map.of(Facts.SUBJECT, with.email)), 201, "sharing " + app + " with " + with.email);
    }

    private Acts.Did schedule(Acts acts, String expression) {
        return acts.api(ACTOR, Kind.SETUP, owner, "gate", "POST", "/apps/" + hooks + "/schedules",
                "{\"cron\":" + Json.quote(expression) + ",\"job\":\"" + Pages.JOB + "\"}", hooks, Map.of());
    }

    private static void opened(Acts acts, Visitor who, String app) {
        if (!acts.signInto(ACTOR, who, "gate", app, Map.of())) {
            throw new DrillError(who.email + " could not open " + app + " (ticket and redirect; see history.jsonl)");
        }
    }

    private static Publisher.Published published(Publisher.Published p, String app) {
        if (!p.ok()) {
            throw new DrillError("publishing " + app + ": " + p.failed());
        }
        return p;
    }

    static Acts.Did expect(Acts.Did did, int status, String what) {
        if (did.seen().status() != status) {
            throw new DrillError(what + ": expected " + status + ", got " + did.seen().summary());
        }
        return did;
    }

    /** A key no other delivery has. */
    static String key(String sender, int n) {
        return sender + "-" + n + "-" + UUID.randomUUID().toString().substring(0, 8);
    }
}
