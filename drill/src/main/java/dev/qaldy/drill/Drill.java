package dev.qaldy.drill;

import dev.qaldy.drill.cast.Cast;
import dev.qaldy.drill.cast.Visitor;
import dev.qaldy.drill.cell.CellControl;
import dev.qaldy.drill.cell.DrillError;
import dev.qaldy.drill.cell.Http;
import dev.qaldy.drill.cell.Seen;
import dev.qaldy.drill.console.ConsoleWatch;
import dev.qaldy.drill.console.StatusPageWatch;
import dev.qaldy.drill.report.PassResult;
import dev.qaldy.drill.report.Report;
import dev.qaldy.drill.rows.AfterReturn;
import dev.qaldy.drill.rows.Check;
import dev.qaldy.drill.rows.DuringOutage;
import dev.qaldy.drill.rows.ScheduleCheck;
import dev.qaldy.drill.rows.SeedRow;
import dev.qaldy.drill.rows.SiteCheck;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code bin/qaldy drill [--pass kill|db|cut|both|all|A,B] [--out DIR]} (seed: "The drill. Stopping
 * the API on the pilot and recording what people saw"): on a running cell, makes the people of the
 * seed's table, stops the control plane for real (pass "kill": the API's process killed; pass "db":
 * its database stopped, the API up; pass "cut", on a cell of many hosts: every control plane cut off
 * from every edge component by a silent partition, the API up and on its database; "both" is kill
 * and db, the default; "all" the three), records what each person saw, starts it again (or heals the
 * links) and records the catch-up, then writes {@code report.md} and {@code report.html} under
 * {@code var/drill/<time>/}.
 *
 * <p>Exit codes: 0 every row passed; 1 a row failed (named on stderr and in the report); 2 the
 * drill could not run (the cell is not up, a step of the set-up failed), or bad arguments.
 *
 * <p>Durations (system properties, through {@code QALDY_DRILL_OPTS}; tests shorten them):
 * {@code qaldy.drill.cron} the schedule's cron ({@code * * * * *}; "_" stands for a space, as
 * the options are split at spaces); {@code qaldy.drill.tick-lead} (PT10S): a next tick closer than
 * that when the outage is about to start is let pass first; the outage lasts until its next
 * tick plus {@code qaldy.drill.tick-margin} (PT35S: the scheduler takes a tick up to twice its
 * tick interval late as on time, 2 × 15 s by default, so a shorter outage is no missed tick), at least until the console's banner showed;
 * {@code qaldy.drill.console-wait} for the banner (default: the console's poll interval × (misses
 * + 1) + 20 s); {@code qaldy.drill.return-wait} (PT3M) per person after the return;
 * {@code qaldy.drill.site-wait} (PT8S: past the runtime host's live freshness) from the stop
 * before a never-served page of the public site is asked for; {@code qaldy.drill.access-freshness}
 * (PT30S, the gate's {@code qaldy.gate.access-freshness}) and {@code qaldy.drill.freshness-margin}
 * (PT5S): the outage lasts at least that long past the gate's last ask about the person who
 * already opened the app, who is then asked for once more and must be let in from the gate's
 * outage copy ({@code X-Qaldy-Access: outage-copy}), not its fresh copy; {@code qaldy.drill.catch-up-wait} (PT2M) and {@code qaldy.drill.settle} (PT8S) for the schedule;
 * {@code qaldy.drill.cap-wait} (PT2M) for the payer's app to fall asleep; {@code qaldy.drill.status-wait}
 * (PT60S) for the status page ({@code qaldy.drill.status-url}, set by bin/qaldy when the cell runs
 * one; none, no status check) to show the outage, its screenshot {@code status-<pass>.png} in the report.
 */
public final class Drill {

    /** The faults, one pass each: the API's process killed, its database stopped, the API cut off from the edge. */
    static final List<String> PASSES = List.of("kill", "db", "cut");

    private final CellControl cell;
    private final Http http;
    private final Path out;
    private final Cast cast;

    Drill(CellControl cell, Path out) {
        this.cell = cell;
        this.http = new Http(cell.gatePort());
        this.out = out;
        this.cast = new Cast(cell, http, Long.toString(System.currentTimeMillis() / 1000 % 100_000_000L, 36));
    }

    public static void main(String[] args) {
        List<String> passes = new ArrayList<>(List.of("kill", "db"));
        String outArg = null;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--pass" -> {
                    try {
                        passes = passes(i + 1 < args.length ? args[++i] : "");
                    } catch (IllegalArgumentException e) {
                        usage(e.getMessage());
                    }
                }
                case "--out" -> outArg = i + 1 < args.length ? args[++i] : usage("--out needs a folder");
                default -> usage("unknown argument '" + args[i] + "'");
            }
        }
        Instant started = Instant.now();
        Path var = Path.of(System.getProperty("qaldy.drill.var", "var"));
        Path out = outArg != null ? Path.of(outArg)
                : var.resolve("drill").resolve(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss").withZone(ZoneOffset.UTC).format(started));
        try {
            Drill drill = new Drill(CellControl.fromSystemProperties(out.resolve("qaldy.log")), out);
            Report report = drill.run(passes, started);
            Path md = report.write(out);
            System.out.println("Report: " + md + " (and report.html)");
            if (!report.passed()) {
                System.err.println("qaldy drill: FAILED rows: " + String.join(", ", report.failedRows()));
                System.exit(1);
            }
            System.out.println("qaldy drill: every row passed");
            System.exit(0);
        } catch (DrillError e) {
            System.err.println("qaldy drill: could not run: " + e.getMessage());
            System.exit(2);
        } catch (Exception e) {
            System.err.println("qaldy drill: could not run: " + e);
            System.exit(2);
        }
    }

    private static <T> T usage(String problem) {
        System.err.println("qaldy drill: " + problem + "\nusage: bin/qaldy drill [--pass kill|db|cut|both|all|A,B] [--out DIR]");
        System.exit(2);
        return null;
    }

    /**
     * {@code --pass}'s value: kill, db, cut, both (kill and db), all (the three), or a comma-separated list of the first three.
     *
     * @throws IllegalArgumentException any other value, with the sentence to print
     */
    static List<String> passes(String which) {
        if (which.equals("both")) {
            return List.of("kill", "db");
        }
        if (which.equals("all")) {
            return List.of("kill", "db", "cut");
        }
        List<String> passes = List.of(which.split(",", -1));
        if (passes.isEmpty() || !PASSES.containsAll(passes) || passes.stream().distinct().count() != passes.size()) {
            throw new IllegalArgumentException("--pass takes kill, db, cut, both, all or a list such as kill,cut, not '" + which + "'");
        }
        return passes;
    }

    Report run(List<String> passes, Instant started) throws Exception {
        Seen ping = http.send(http.request(cell.publicHost(), "/api/v1/ping").GET().build());
        if (ping.status() != 200) {
            throw new DrillError("the cell does not answer at " + cell.publicHost() + " (/api/v1/ping: " + ping.summary()
                    + "); start it with bin/qaldy up");
        }
        say("Making the people of the seed's table (app " + cast.app + ")…");
        cast.prepare(setting("qaldy.drill.cron", "* * * * *").replace('_', ' '), duration("qaldy.drill.cap-wait", "PT2M"));
        List<PassResult> results = new ArrayList<>();
        ConsoleWatch console = null;
        Exception consoleProblem = null;
        try {
            try {
                console = ConsoleWatch.open("http://" + cell.publicHost() + "/console/", cast.owner.email, cast.owner.password(),
                        cast.app, out);
            } catch (Exception e) {
                consoleProblem = e;
            }
            for (String pass : passes) {
                results.add(pass(pass, console, consoleProblem));
            }
        } finally {
            if (console != null) {
                console.close();
            }
        }
        return new Report("http://" + cell.publicHost(), started, results);
    }

    private PassResult pass(String pass, ConsoleWatch console, Exception consoleProblem) {
        String title = switch (pass) {
            case "kill" -> "The API killed (bin/qaldy stop control --kill)";
            case "db" -> "The database stopped, the API up (bin/qaldy stop db)";
            default -> "The API cut off from the gates, runtime hosts and status page, up and on its database (bin/qaldy partition)";
        };
        Visitor newcomer = cast.newcomer(pass);
        Visitor.expect(awaitAsked(), 200, "the viewer's visit before the outage");
        SiteCheck site = new SiteCheck(cast);
        site.before();
        if (console != null) {
            console.beforeOutage();
        }
        // Last before the stop, and far enough ahead: a tick that passed while the steps before the stop ran (seconds on a
        // loaded machine) fired as usual, and the outage then held no tick to catch up.
        ScheduleCheck schedule = new ScheduleCheck(cast);
        Instant nextTick = schedule.before(duration("qaldy.drill.tick-lead", "PT10S"));
        List<Check> checks = new ArrayList<>();
        say(title + "…");
        Instant stopped = Instant.now();
        Instant restarting = null;
        List<String[]> cut = List.of();
        switch (pass) {
            case "kill" -> cell.qaldy("stop", "control", "--kill");
            case "db" -> cell.qaldy("stop", "db");
            default -> cut = cell.cutOffControlPlanes();
        }
        try {
            DuringOutage outage = new DuringOutage(cell, http, cast);
            checks.addAll(outage.all(newcomer));
            checks.addAll(site.servedPages());
            checks.add(console != null ? console.duringOutage(pass, stopped, consoleWait())
                    : Check.broken(SeedRow.CONSOLE, Check.DURING, "a console user", "the outage banner", consoleProblem));
            String statusUrl = System.getProperty("qaldy.drill.status-url", "");
            if (console != null && !statusUrl.isBlank()) {
                checks.add(new StatusPageWatch(console, statusUrl).duringOutage(pass, stopped,
                        duration("qaldy.drill.status-wait", "PT60S")));
            }
            waitUntil(stopped.plus(duration("qaldy.drill.site-wait", "PT8S")));
            checks.add(site.neverServed(pass));
            checks.add(pastFreshness(outage));
            say("Keeping it down until the schedule's tick at " + nextTick + " has passed…");
            waitUntil(nextTick.plus(duration("qaldy.drill.tick-margin", "PT35S")));
        } finally {
            restarting = Instant.now();
            switch (pass) {
                case "kill" -> {
                    say("Starting it again…");
                    cell.qaldy("start", "control");
                }
                case "db" -> {
                    say("Starting it again…");
                    cell.qaldy("start", "db");
                }
                default -> {
                    say("Healing the links…");
                    cell.heal(cut);
                }
            }
        }
        Instant returned = Instant.now();
        Duration wait = duration("qaldy.drill.return-wait", "PT3M");
        checks.addAll(new AfterReturn(cast, wait).all(newcomer));
        checks.add(site.afterReturn(pass, wait));
        if (console != null) {
            checks.add(console.afterReturn(pass, returned, wait));
        }
        checks.add(pass.equals("cut")
                ? schedule.afterCut(stopped, restarting, returned, duration("qaldy.drill.catch-up-wait", "PT2M"),
                        duration("qaldy.drill.settle", "PT8S"))
                : schedule.after(stopped, restarting, returned, duration("qaldy.drill.catch-up-wait", "PT2M"),
                        duration("qaldy.drill.settle", "PT8S")));
        PassResult result = new PassResult(pass, title, stopped, returned, checks);
        say(title + ": " + checks.stream().filter(Check::passed).count() + " of " + checks.size() + " checks passed");
        return result;
    }

    /**
     * Waits, within the outage, until the gate's freshness window ({@code qaldy.drill.access-freshness},
     * PT30S as the gate's {@code qaldy.gate.access-freshness}) plus {@code qaldy.drill.freshness-margin}
     * (PT5S) has passed since the gate last asked about the viewer, then checks that the viewer is
     * still let in from the gate's outage copy. The wait is at most that window and margin.
     */
    private Check pastFreshness(DuringOutage outage) {
        Duration freshness = duration("qaldy.drill.access-freshness", "PT30S");
        Instant asked = cast.viewer.lastAsked();
        Instant at = (asked == null ? Instant.now() : asked).plus(freshness).plus(duration("qaldy.drill.freshness-margin", "PT5S"));
        if (Instant.now().isBefore(at)) {
            say("Waiting until the gate's " + freshness.toSeconds() + " s freshness window has passed (at " + seconds(at)
                    + ") to ask from its outage copy…");
        }
        waitUntil(at);
        return outage.pastFreshness(freshness, asked == null ? -1 : Duration.between(asked, Instant.now()).toSeconds());
    }

    private static String seconds(Instant t) {
        return t.truncatedTo(java.time.temporal.ChronoUnit.SECONDS).toString();
    }

    private static void waitUntil(Instant until) {
        Cast.pauseUntil(until);
    }

    /** The viewer's visit, asked of the API (retried for up to the return wait: the gate may still be finding the API back). */
    private Seen awaitAsked() {
        Instant deadline = Instant.now().plus(duration("qaldy.drill.return-wait", "PT3M"));
        Seen seen;
        do {
            seen = cast.viewer.get(cast.app, "/");
            if (seen.status() == 200 && seen.header("x-qaldy-access").equals("asked")) {
                return seen;
            }
            Cast.pause(Duration.ofSeconds(1));
        } while (Instant.now().isBefore(deadline));
        return seen;
    }

    private Duration consoleWait() {
        String set = System.getProperty("qaldy.drill.console-wait");
        if (set != null) {
            return Duration.parse(set);
        }
        Seen settings = http.send(http.request(cell.publicHost(), "/console/settings.json").GET().build());
        long pollMs = 15_000;
        long misses = 2;
        if (settings.status() == 200) {
            var json = jakarta.json.Json.createReader(new java.io.StringReader(settings.body())).readObject();
            pollMs = json.getJsonNumber("pollIntervalMs").longValue();
            misses = json.getJsonNumber("missesBeforeBanner").longValue();
        }
        return Duration.ofMillis(pollMs * (misses + 1) + 20_000);
    }

    private static String setting(String name, String otherwise) {
        return System.getProperty(name, otherwise);
    }

    private static Duration duration(String name, String otherwise) {
        try {
            return Duration.parse(setting(name, otherwise));
        } catch (java.time.format.DateTimeParseException e) {
            throw new DrillError(name + " must be an ISO-8601 duration such as PT30S, not '" + System.getProperty(name) + "'");
        }
    }

    private static void say(String line) {
        System.out.println(DateTimeFormatter.ISO_LOCAL_TIME.withZone(ZoneOffset.UTC).format(Instant.now()).substring(0, 8)
                + " " + line);
    }
}
