package dev.qaldy.soak;

import dev.qaldy.drill.cell.CellControl;
import dev.qaldy.drill.cell.DrillError;
import dev.qaldy.drill.cell.Http;
import dev.qaldy.soak.check.Bounds;
import dev.qaldy.soak.check.Checker;
import dev.qaldy.soak.check.Verdict;
import dev.qaldy.soak.faults.FaultInjector;
import dev.qaldy.soak.faults.FaultPlan;
import dev.qaldy.soak.faults.PlannedFault;
import dev.qaldy.soak.faults.PlannedRound;
import dev.qaldy.soak.faults.Readiness;
import dev.qaldy.soak.history.History;
import dev.qaldy.soak.history.HistoryFile;
import dev.qaldy.soak.history.Recorder;
import dev.qaldy.soak.people.Acts;
import dev.qaldy.soak.people.Population;
import dev.qaldy.soak.people.RecoveryProbe;
import dev.qaldy.soak.people.RunsListing;
import dev.qaldy.soak.people.SoakCast;
import dev.qaldy.soak.report.SoakReport;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code bin/qaldy soak --minutes N --seed S [--server payara|liberty] [--out DIR]} (issue 14): on
 * a running cell, a seeded timeline of faults ({@link FaultPlan}: SIGKILL, SIGSTOP then SIGCONT,
 * graceful stop, restart of each component, and on a cell of many hosts a cut (a silent partition)
 * of a control plane, a gate or a runtime host, one or two at a time, a restart during an outage)
 * while a population works ({@link Population}); every request and its answer is recorded in
 * {@code history.jsonl}, each round ends with a recovery probe, and at the end the invariants
 * ({@link Checker}) judge the whole history. Report: {@code var/soak/<time>/report.md} and
 * {@code .html}. Everything the soak took away is brought back when it ends, fails or is
 * interrupted (a shutdown hook).
 *
 * <p>{@code bin/qaldy soak --check FILE} judges a recorded history again (the report beside it);
 * {@code --plan} prints the seed's timeline and exits.
 *
 * <p>Exit codes: 0 no violation; 1 an invariant was violated (named on stderr and in the report);
 * 2 the soak could not run (the cell is not up, the set-up failed), or bad arguments.
 *
 * <p>Settings (system properties, through {@code QALDY_SOAK_OPTS}): {@code qaldy.soak.warm-up}
 * (PT15S: the population works before the first fault), the invariants' bounds ({@link Bounds}),
 * and from bin/qaldy the cell ({@code qaldy.soak.root}, {@code .var}, {@code .gate-port},
 * {@code .control-port}, {@code .ports} "component=port,…", {@code .components}: those that may be
 * faulted).
 */
public final class Soak {

    /** The wall clock every request, fault and round of a soak is timed by (a soak records real time). */
    public static final Clock CLOCK = Clock.systemUTC();

    private Soak() {
    }

    public static void main(String[] args) {
        Map<String, String> opts = new LinkedHashMap<>();
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--minutes", "--seed", "--server", "--out", "--check" -> {
                    if (i + 1 >= args.length) {
                        usage(args[i] + " needs a value");
                    }
                    opts.put(args[i].substring(2), args[++i]);
                }
                case "--plan" -> opts.put("plan", "yes");
                default -> usage("unknown argument '" + args[i] + "'");
            }
        }
        try {
            Bounds bounds = Bounds.fromSystemProperties();
            if (opts.containsKey("check")) {
                System.exit(recheck(Path.of(opts.get("check")), opts, bounds));
            }
            int minutes = number(opts, "minutes", 10);
            long seed = seed(opts);
            String server = opts.get("server");
            if (server != null && !server.equals("payara") && !server.equals("liberty")) {
                usage("--server takes payara or liberty, not '" + server + "'");
            }
            List<String> faultable = List.of(System.getProperty("qaldy.soak.components", "db,control,runtime,gate").split(","));
            Path var = Path.of(System.getProperty("qaldy.soak.var", "var"));
            boolean partitions = Files.exists(var.resolve("hosts.net")); // a cell of many hosts: links can be cut
            List<PlannedRound> plan = FaultPlan.of(seed, Duration.ofMinutes(minutes), faultable, partitions);
            if (opts.containsKey("plan")) {
                plan.forEach(r -> say("round " + r.number() + " (" + r.shape() + ", after " + r.gap().toSeconds() + " s): "
                        + String.join("; ", r.faults().stream().map(PlannedFault::line).toList())));
                System.exit(0);
            }
            Instant started = CLOCK.instant();
            Path out = opts.containsKey("out") ? Path.of(opts.get("out"))
                    : var.resolve("soak").resolve(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss").withZone(ZoneOffset.UTC).format(started));
            SoakReport report = new Soak.Run(seed, minutes, server, faultable, partitions, plan, bounds, out).run();
            Path md = report.write(out);
            System.out.println("Report: " + md + " (and report.html; the history: " + out.resolve("history.jsonl") + ")");
            if (!report.passed()) {
                System.err.println("qaldy soak: VIOLATED: " + String.join("; ", report.violated()));
                System.exit(1);
            }
            System.out.println("qaldy soak: no violation");
            System.exit(0);
        } catch (DrillError | IllegalArgumentException e) {
            System.err.println("qaldy soak: could not run: " + e.getMessage());
            System.exit(2);
        } catch (Exception e) {
            System.err.println("qaldy soak: could not run: " + e);
            System.exit(2);
        }
    }

    private static int recheck(Path file, Map<String, String> opts, Bounds bounds) throws IOException {
        History history = HistoryFile.read(file);
        List<Verdict> verdicts = Checker.check(history, bounds);
        SoakReport report = new SoakReport(history, verdicts, new SoakReport.Run("(from " + file + ")", "?", 0,
                FaultPlan.of(history.seed(), Duration.ofMinutes(number(opts, "minutes", 10)), history.components(), history.partitions()),
                List.of("Judged again from " + file + ".")), bounds);
        Path out = opts.containsKey("out") ? Path.of(opts.get("out")) : file.toAbsolutePath().getParent();
        System.out.println("Report: " + report.write(out));
        if (!report.passed()) {
            System.err.println("qaldy soak: VIOLATED: " + String.join("; ", report.violated()));
            return 1;
        }
        System.out.println("qaldy soak: no violation");
        return 0;
    }

    /** One soak on the running cell. */
    private record Run(long seed, int minutes, String server, List<String> faultable, boolean partitions, List<PlannedRound> plan,
            Bounds bounds, Path out) {

        SoakReport run() throws Exception {
            CellControl cell = CellControl.fromSystemProperties("qaldy.soak", out.resolve("qaldy.log"));
            Map<String, Integer> ports = ports();
            Readiness readiness = new Readiness(ports);
            for (String c : faultable) {
                if (!readiness.readyWithin(c, Duration.ofMinutes(1))) {
                    throw new DrillError(c + " is not ready within a minute (port " + ports.get(c) + "); the soak needs a whole cell: bin/qaldy up, then "
                            + "bin/qaldy status");
                }
            }
            checkServer(cell);
            Map<String, Http> gates = new LinkedHashMap<>();
            Http http = new Http(cell.gatePort());
            gates.put("gate", http);
            if (ports.containsKey("gate2")) {
                gates.put("gate2", http.onPort(ports.get("gate2")));
            }
            List<String> notes = new ArrayList<>();
            String stamp = Long.toString(CLOCK.millis() / 1000 % 100_000_000L, 36);
            SoakReport report;
            long t0 = CLOCK.millis();
            try (Recorder recorder = new Recorder(seed, t0, faultable, partitions, out.resolve("history.jsonl"))) {
                Acts acts = new Acts(recorder, cell, gates);
                SoakCast cast = new SoakCast(stamp);
                say("Making the soak's people and apps (sk" + stamp + "…)…");
                cast.prepare(acts, CLOCK.millis() + 300_000);
                FaultInjector faults = new FaultInjector(cell, recorder, readiness, server);
                Thread hook = new Thread(() -> faults.restoreAll(Soak::say), "soak-restore");
                Runtime.getRuntime().addShutdownHook(hook);
                Population population = new Population(seed, acts, cast);
                RecoveryProbe probe = new RecoveryProbe(acts, cast, recorder, bounds.recovery());
                population.start();
                try {
                    Duration warmUp = Duration.parse(System.getProperty("qaldy.soak.warm-up", "PT15S"));
                    say("The population works; the first fault in " + warmUp.toSeconds() + " s. Faults for " + minutes + " min, seed " + seed
                            + ".");
                    Thread.sleep(warmUp.toMillis());
                    long deadline = CLOCK.millis() + Duration.ofMinutes(minutes).toMillis();
                    for (PlannedRound round : plan) {
                        if (CLOCK.millis() >= deadline) {
                            break;
                        }
                        Thread.sleep(round.gap().toMillis());
                        long healed = faults.run(round, Soak::say);
                        var recovery = probe.probe(round.number(), healed);
                        say("round " + round.number() + ": back at +" + (healed - t0) / 1000 + " s; "
                                + (recovery.recoveryMs() < 0 ? "some path did not work again" : "every path worked again after "
                                        + recovery.recoveryMs() / 1000 + " s"));
                    }
                } finally {
                    faults.restoreAll(Soak::say);
                    try {
                        Runtime.getRuntime().removeShutdownHook(hook);
                    } catch (IllegalStateException shuttingDown) {
                        // the hook runs already
                    }
                }
                say("The faults are over; the population stops (webhook senders finish their retries)…");
                population.stop(Duration.ofSeconds(120));
                notes.addAll(population.stumbles().stream().map(s -> "Steps that threw (the actor went on): " + s).toList());
                if (RunsListing.record(acts, cast, recorder, Duration.ofSeconds(120)) < 0) {
                    notes.add("The API did not list the runs at the end: the webhook and schedule invariants judged none.");
                }
                History history = recorder.snapshot();
                say("Judging " + history.ops().size() + " requests…");
                report = new SoakReport(history, Checker.check(history, bounds), new SoakReport.Run("http://" + cell.publicHost(),
                        server == null ? "as each component last ran" : server, minutes, plan, notes), bounds);
            }
            return report;
        }

        /** With --server, every component of the cell must run on it (var/run/COMPONENT.server). */
        private void checkServer(CellControl cell) throws IOException {
            if (server == null) {
                return;
            }
            for (String c : faultable) {
                Path file = cell.var().resolve("run/" + c + ".server");
                if (!c.equals("db") && Files.exists(file) && !Files.readString(file).trim().equals(server)) {
                    throw new DrillError(c + " runs on " + Files.readString(file).trim() + ", not " + server + "; start the cell with "
                            + "bin/qaldy up --server " + server + " (or leave out --server)");
                }
            }
        }

        private static Map<String, Integer> ports() {
            Map<String, Integer> ports = new LinkedHashMap<>();
            for (String pair : System.getProperty("qaldy.soak.ports", "").split(",")) {
                int eq = pair.indexOf('=');
                if (eq > 0) {
                    ports.put(pair.substring(0, eq), Integer.parseInt(pair.substring(eq + 1)));
                }
            }
            if (ports.isEmpty()) {
                throw new DrillError("missing -Dqaldy.soak.ports; run the soak with bin/qaldy soak");
            }
            return ports;
        }
    }

    private static long seed(Map<String, String> opts) {
        try {
            return opts.containsKey("seed") ? Long.parseLong(opts.get("seed")) : usage("--seed is needed (any whole number)");
        } catch (NumberFormatException e) {
            return usage("--seed takes a whole number, not '" + opts.get("seed") + "'");
        }
    }

    private static int number(Map<String, String> opts, String name, int otherwise) {
        try {
            int n = opts.containsKey(name) ? Integer.parseInt(opts.get(name)) : otherwise;
            if (n < 1 || n > 24 * 60) {
                throw new NumberFormatException();
            }
            return n;
        } catch (NumberFormatException e) {
            return usage("--" + name + " takes a whole number of minutes from 1 to 1440, not '" + opts.get(name) + "'");
        }
    }

    private static <T> T usage(String problem) {
        System.err.println("qaldy soak: " + problem + "\nusage: bin/qaldy soak --minutes N --seed S [--server payara|liberty] [--out DIR]"
                + "\n       bin/qaldy soak --check DIR/history.jsonl\n       bin/qaldy soak --plan --minutes N --seed S");
        System.exit(2);
        return null;
    }

    static void say(String line) {
        System.out.println(DateTimeFormatter.ISO_LOCAL_TIME.withZone(ZoneOffset.UTC).format(CLOCK.instant()).substring(0, 8) + " " + line);
    }
}
