package dev.qaldy.soak.report;

import dev.qaldy.soak.check.Bounds;
import dev.qaldy.soak.check.Verdict;
import dev.qaldy.soak.check.Violation;
import dev.qaldy.soak.faults.PlannedFault;
import dev.qaldy.soak.faults.PlannedRound;
import dev.qaldy.soak.history.Fault;
import dev.qaldy.soak.history.History;
import dev.qaldy.soak.history.Op;
import dev.qaldy.soak.history.Recovery;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The soak's report, {@code report.md} and {@code report.html} beside {@code history.jsonl}: the
 * result, per invariant the checks and violations, the fault timeline with each fault's restart
 * and its round's recovery time, for the first violation of each invariant the requests and
 * faults around it, the seed's planned timeline and what each actor did.
 */
public final class SoakReport {

    /** How far around a violation the report shows requests (ms). */
    static final long AROUND_MS = 5_000;
    static final int AROUND_MAX = 16;

    /** What the report says about the run besides its history. */
    public record Run(String cell, String server, int minutes, List<PlannedRound> plan, List<String> notes) {
    }

    private final History history;
    private final List<Verdict> verdicts;
    private final Run run;
    private final Bounds bounds;

    public SoakReport(History history, List<Verdict> verdicts, Run run, Bounds bounds) {
        this.history = history;
        this.verdicts = List.copyOf(verdicts);
        this.run = run;
        this.bounds = bounds;
    }

    public boolean passed() {
        return verdicts.stream().allMatch(Verdict::held);
    }

    /** The invariants with a violation, by name. */
    public List<String> violated() {
        return verdicts.stream().filter(v -> !v.held()).map(Verdict::name).toList();
    }

    /** Writes report.md and report.html into {@code folder}; returns the Markdown file. */
    public Path write(Path folder) throws IOException {
        Doc doc = doc();
        Files.createDirectories(folder);
        Files.writeString(folder.resolve("report.md"), doc.markdown());
        Files.writeString(folder.resolve("report.html"), doc.html());
        return folder.resolve("report.md");
    }

    Doc doc() {
        Doc d = new Doc("Qaldy soak, " + Instant.ofEpochMilli(history.started()).truncatedTo(java.time.temporal.ChronoUnit.SECONDS));
        d.para("Seed " + history.seed() + ", " + run.minutes() + " min of faults, server " + run.server() + ", cell " + run.cell()
                + ", components " + String.join(", ", history.components()) + ". Result: **" + (passed() ? "PASS" : "FAIL") + "**"
                + (passed() ? "" : " (violated: " + String.join("; ", violated()) + ")") + ".");
        d.para(history.ops().size() + " requests, " + history.faults().size() + " faults in " + history.recoveries().size() + " of "
                + run.plan().size() + " planned rounds, " + history.runs().size() + " runs listed by the API; "
                + (history.ended() - history.started()) / 1000 + " s in all. Times below are seconds from the start ("
                + Instant.ofEpochMilli(history.started()) + "). Bounds: " + bounds + ".");
        run.notes().forEach(d::para);

        d.heading(2, "Invariants");
        List<List<String>> rows = new ArrayList<>();
        for (Verdict v : verdicts) {
            rows.add(List.of(v.name(), v.rule(), Integer.toString(v.checks()), Integer.toString(v.violations().size()),
                    v.held() ? "PASS" : "FAIL"));
        }
        d.table(List.of("Invariant", "Rule", "Checks", "Violations", "Result"), rows);

        d.heading(2, "Fault timeline");
        List<List<String>> faults = new ArrayList<>();
        for (Fault f : history.faults()) {
            Recovery r = recovery(f.round());
            faults.add(List.of(Integer.toString(f.round()), f.component(), f.kind().said, t(f.start()), t(f.down()) + " – " + t(f.up()),
                    f.ready() < 0 ? "never" : t(f.ready()), f.restartMs() < 0 ? "—" : seconds(f.restartMs()),
                    r == null ? "—" : r.recoveryMs() < 0 ? "not within " + (r.gaveUp() - r.healed()) / 1000 + " s" : seconds(r.recoveryMs()),
                    f.note()));
        }
        d.table(List.of("Round", "Component", "Fault", "Began", "Certainly away", "Back (ready)", "Restart took",
                "Round's recovery", "Note"), faults);

        d.heading(2, "Recovery after each round");
        List<List<String>> recoveries = new ArrayList<>();
        for (Recovery r : history.recoveries()) {
            List<String> row = new ArrayList<>(List.of(Integer.toString(r.round()), t(r.healed())));
            for (String path : Recovery.PATHS) {
                long ok = r.firstOk().getOrDefault(path, -1L);
                row.add(ok < 0 ? "never" : seconds(ok - r.healed()));
            }
            row.add(r.recoveryMs() < 0 ? "FAIL" : r.recoveryMs() <= bounds.recovery().toMillis() ? "PASS" : "FAIL");
            recoveries.add(row);
        }
        List<String> head = new ArrayList<>(List.of("Round", "Healed at"));
        head.addAll(Recovery.PATHS);
        head.add("Within " + bounds.recovery().toSeconds() + " s");
        d.table(head, recoveries);

        for (Verdict v : verdicts) {
            if (v.held()) {
                continue;
            }
            d.heading(2, "First violation: " + v.name());
            Violation first = v.violations().get(0);
            d.para("At " + t(first.at()) + ": " + first.said());
            List<String> lines = new ArrayList<>();
            for (long id : first.opIds()) {
                Op op = history.op(id);
                if (op != null) {
                    lines.add(t(op.start()) + "  " + op.line());
                }
            }
            if (!lines.isEmpty()) {
                d.para("The requests it rests on:").pre(lines);
            }
            d.para("Requests around it (±" + AROUND_MS / 1000 + " s):").pre(around(first));
            List<String> nearFaults = history.faults().stream().filter(f -> f.start() - 60_000 <= first.at()
                    && f.readyOr(history.ended()) + 60_000 >= first.at()).map(f -> t(f.start()) + " – " + t(f.readyOr(history.ended()))
                            + "  " + f.line()).toList();
            d.para("Faults around it (within 60 s):").pre(nearFaults.isEmpty() ? List.of("none") : nearFaults);
            if (v.violations().size() > 1) {
                d.para((v.violations().size() - 1) + " more:").items(v.violations().stream().skip(1).limit(10)
                        .map(x -> t(x.at()) + ": " + x.said()).toList());
            }
        }

        d.heading(2, "The seed's timeline");
        d.para("Planned from seed " + history.seed() + " alone (the soak starts no round after its minutes): same seed, same rounds.");
        List<String> plan = new ArrayList<>();
        for (PlannedRound r : run.plan()) {
            plan.add("round " + r.number() + " (" + r.shape() + ", after " + r.gap().toSeconds() + " s quiet): "
                    + String.join("; ", r.faults().stream().map(PlannedFault::line).toList()));
        }
        d.items(plan);

        d.heading(2, "The population");
        Map<String, Map<Integer, Integer>> byActor = new TreeMap<>();
        for (Op op : history.ops()) {
            byActor.computeIfAbsent(op.actor(), k -> new TreeMap<>()).merge(op.status(), 1, Integer::sum);
        }
        List<List<String>> actors = new ArrayList<>();
        byActor.forEach((actor, statuses) -> {
            Map<String, Integer> said = new LinkedHashMap<>();
            statuses.forEach((s, n) -> said.put(s == 0 ? "no answer" : Integer.toString(s), n));
            actors.add(List.of(actor, Integer.toString(statuses.values().stream().mapToInt(Integer::intValue).sum()), said.toString()));
        });
        d.table(List.of("Actor", "Requests", "Answers"), actors);
        return d;
    }

    private List<String> around(Violation v) {
        List<Op> near = history.ops().stream().filter(o -> Math.abs(o.start() - v.at()) <= AROUND_MS)
                .sorted(java.util.Comparator.comparingLong(o -> Math.abs(o.start() - v.at()))).limit(AROUND_MAX)
                .sorted(java.util.Comparator.comparingLong(Op::start)).toList();
        return near.stream().map(o -> t(o.start()) + "  " + o.line()).toList();
    }

    private Recovery recovery(int round) {
        return history.recoveries().stream().filter(r -> r.round() == round).findFirst().orElse(null);
    }

    /** "+123.4 s" from the history's start. */
    private String t(long epochMs) {
        return String.format(java.util.Locale.ROOT, "+%.1f s", (epochMs - history.started()) / 1000.0);
    }

    private static String seconds(long ms) {
        return String.format(java.util.Locale.ROOT, "%.1f s", ms / 1000.0);
    }
}
