package dev.qaldy.soak.people;

import dev.qaldy.soak.Soak;
import dev.qaldy.drill.cast.Json;
import dev.qaldy.drill.cast.Visitor;
import dev.qaldy.drill.cell.DrillError;
import dev.qaldy.soak.history.Facts;
import dev.qaldy.soak.history.Kind;
import dev.qaldy.soak.history.Recorder;
import dev.qaldy.soak.history.Recovery;
import java.time.Duration;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/**
 * After a round's last fault healed, tries every path a person needs (issue 14: sign-in, a
 * billing write, a cap change, a build, a new app's first opening through every gate) every 2 s
 * until each worked once, and records when: nothing may be left wedged. Gives up after twice the
 * recovery bound, so a recovery that takes longer is still measured.
 */
public final class RecoveryProbe {

    private static final String ACTOR = "probe";

    private final Acts acts;
    private final SoakCast cast;
    private final Recorder recorder;
    private final Duration bound;

    public RecoveryProbe(Acts acts, SoakCast cast, Recorder recorder, Duration bound) {
        this.acts = acts;
        this.cast = cast;
        this.recorder = recorder;
        this.bound = bound;
    }

    /** Probes until every path worked or twice the bound passed since {@code healed}; records the recovery. */
    public Recovery probe(int round, long healed) {
        long deadline = healed + 2 * bound.toMillis();
        Map<String, Long> firstOk = new LinkedHashMap<>();
        Recovery.PATHS.forEach(p -> firstOk.put(p, -1L));
        FirstOpening opening = new FirstOpening(round);
        while (firstOk.containsValue(-1L) && Soak.CLOCK.millis() < deadline) {
            for (String path : Recovery.PATHS) {
                if (firstOk.get(path) < 0 && Soak.CLOCK.millis() < deadline && tryPath(path, round, opening, deadline)) {
                    firstOk.put(path, Soak.CLOCK.millis());
                }
            }
            if (firstOk.containsValue(-1L)) {
                Actor.sleep(2000);
            }
        }
        Recovery recovery = new Recovery(round, healed, firstOk, Soak.CLOCK.millis());
        recorder.recovery(recovery);
        return recovery;
    }

    private boolean tryPath(String path, int round, FirstOpening opening, long deadline) {
        Map<String, String> facts = Map.of(Facts.PROBE, path, Facts.ROUND, Integer.toString(round));
        Visitor p = cast.prober;
        return switch (path) {
            case "sign-in" -> acts.api(ACTOR, Kind.SIGN_IN, p, "gate", "POST", "/sessions", "{\"email\":" + Json.quote(p.email)
                    + ",\"password\":" + Json.quote(p.password()) + "}", "", facts).seen().status() == 201;
            case "billing write" -> acts.usage(ACTOR, UUID.randomUUID().toString(), cast.probe, 1, p.email, facts).seen().status() == 200;
            case "cap change" -> acts.api(ACTOR, Kind.CAP, p, "gate", "PUT", "/billing/cap", "{\"capCents\":" + (1000 + round) + "}", "",
                    Publisher.merged(facts, Facts.ACCOUNT, p.email)).seen().status() == 200;
            case "build" -> Publisher.publish(acts, ACTOR, p, cast.probe, false, facts, deadline).ok();
            case "first opening" -> opening.step(facts, deadline);
            default -> throw new IllegalArgumentException(path);
        };
    }

    /** A new person, a new app, its first build, and its first page through every gate. */
    private final class FirstOpening {

        private final String app;
        private Visitor person;
        private boolean created;
        private boolean published;
        private final Set<String> opened = new HashSet<>();

        FirstOpening(int round) {
            this.app = cast.probe.replace("-probe", "-p" + round);
        }

        boolean step(Map<String, String> facts, long deadline) {
            if (person == null) {
                try {
                    person = acts.signUp("a new person", cast.email("new" + app.substring(app.lastIndexOf('-') + 1)));
                } catch (DrillError e) {
                    return false; // signing up needs the API: again in 2 s
                }
            }
            if (!created) {
                int status = Publisher.create(acts, ACTOR, person, "gate", app, false, facts).seen().status();
                created = status == 201 || status == 409;
                if (!created) {
                    return false;
                }
            }
            if (!published) {
                published = Publisher.publish(acts, ACTOR, person, app, false, facts, deadline).ok();
                if (!published) {
                    return false;
                }
            }
            for (String gate : acts.gates()) {
                if (opened.contains(gate)) {
                    continue;
                }
                if (person.cookie(app) == null && !acts.signInto(ACTOR, person, gate, app, facts)) {
                    continue; // one session opens the app through every gate
                }
                Acts.Did page = acts.open(ACTOR, person, gate, app, "/", Map.of(), facts);
                if (page.seen().status() == 200 && !page.op().fact(Facts.MARKER).isEmpty()) {
                    opened.add(gate);
                } else if (page.seen().status() == 401 || page.seen().status() == 302) {
                    person.useCookie(app, null);
                }
            }
            return opened.size() == acts.gates().size();
        }
    }
}
