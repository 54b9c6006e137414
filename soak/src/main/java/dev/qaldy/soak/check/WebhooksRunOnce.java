package dev.qaldy.soak.check;

import dev.qaldy.soak.history.Facts;
import dev.qaldy.soak.history.History;
import dev.qaldy.soak.history.Kind;
import dev.qaldy.soak.history.Op;
import dev.qaldy.soak.history.Run;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Every webhook delivery the cell answered 2xx runs its job exactly once: the runs the API lists
 * at the end name each accepted delivery's idempotency key once (the soak's job logs it), none
 * twice; a delivery that never got a 2xx (its sender gave up) runs at most once. A run that
 * failed before reaching the job (the runtime host refused the connection) ran zero times.
 */
public final class WebhooksRunOnce implements Invariant {

    /** What the soak's job writes to its log for a webhook's run. */
    public static final Pattern KEY_LINE = Pattern.compile("soak-key ([A-Za-z0-9-]+)");
    /** The dispatcher's reason when the runtime host refused the connection: the job never ran. */
    static final String NEVER_SENT = "ConnectException";

    @Override
    public String name() {
        return "Every accepted webhook runs exactly once";
    }

    @Override
    public String rule() {
        return "every delivery answered 2xx has exactly one run that reached its job; retries with its idempotency key add none";
    }

    @Override
    public Verdict check(History history, Bounds bounds) {
        Map<String, Op> accepted = new LinkedHashMap<>(); // key → its first 2xx
        Set<String> hooks = new LinkedHashSet<>();
        for (Op op : history.ops()) {
            if (op.kind() == Kind.WEBHOOK) {
                hooks.add(op.app() + "/" + op.fact(Facts.HOOK));
                if (op.ok()) {
                    accepted.putIfAbsent(op.fact(Facts.KEY), op);
                }
            }
        }
        List<Violation> violations = new ArrayList<>();
        Map<String, List<Run>> byKey = new HashMap<>();
        Map<String, List<Run>> unnamed = new HashMap<>();
        for (Run run : history.runs()) {
            if (run.hook() == null || !hooks.contains(run.app() + "/" + run.hook())) {
                continue;
            }
            String key = keyOf(run);
            if (key != null) {
                byKey.computeIfAbsent(key, k -> new ArrayList<>()).add(run);
            } else {
                unnamed.computeIfAbsent(run.app() + "/" + run.hook(), k -> new ArrayList<>()).add(run);
            }
            if (!run.ended()) {
                violations.add(new Violation(run.createdAt(), "run " + run.id() + " of a delivery was still " + run.state()
                        + " when the soak ended", List.of()));
            } else if (key == null && run.log().stream().anyMatch(l -> l.contains(NEVER_SENT))) {
                violations.add(new Violation(run.createdAt(), "an accepted delivery's " + run.line() + ": its job never ran",
                        List.of()));
            }
        }
        byKey.forEach((key, runs) -> {
            if (runs.size() > 1) {
                Op first = accepted.get(key);
                violations.add(new Violation(runs.get(0).createdAt(), "delivery " + key + " ran " + runs.size() + " times: "
                        + runs.stream().map(Run::line).toList(), first == null ? List.of() : List.of(first.id())));
            }
        });
        Map<String, Integer> missing = new HashMap<>();
        for (Map.Entry<String, Op> e : accepted.entrySet()) {
            if (!byKey.containsKey(e.getKey())) {
                missing.merge(e.getValue().app() + "/" + e.getValue().fact(Facts.HOOK), 1, Integer::sum);
            }
        }
        missing.forEach((hook, count) -> {
            int unattributed = unnamed.getOrDefault(hook, List.of()).size();
            if (count > unattributed) {
                List<Long> ids = accepted.entrySet().stream().filter(e -> !byKey.containsKey(e.getKey()))
                        .map(e -> e.getValue().id()).limit(5).toList();
                violations.add(new Violation(history.op(ids.get(0)).start(), (count - unattributed) + " accepted deliveries to "
                        + hook + " have no run at all (" + count + " without a run naming them, " + unattributed
                        + " runs naming none)", ids));
            }
        });
        return new Verdict(name(), rule(), accepted.size(), violations);
    }

    static String keyOf(Run run) {
        for (String line : run.log()) {
            Matcher m = KEY_LINE.matcher(line);
            if (m.find()) {
                return m.group(1);
            }
        }
        return null;
    }
}
