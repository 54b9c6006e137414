package dev.qaldy.soak.check;

import dev.qaldy.soak.history.Facts;
import dev.qaldy.soak.history.Fault;
import dev.qaldy.soak.history.FaultKind;
import dev.qaldy.soak.history.History;
import dev.qaldy.soak.history.Kind;
import dev.qaldy.soak.history.Op;
import dev.qaldy.soak.history.Recovery;
import dev.qaldy.soak.history.Run;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Small histories for the invariants' tables: times in seconds from 0, each request 0.1 s long unless said. */
final class Histories {

    static final String OWNER = "owner@soak";
    static final String ANN = "ann@soak";
    static final String BOB = "bob@soak";

    private final List<String> components = new ArrayList<>(List.of("db", "control", "runtime", "gate"));
    private final List<Op> ops = new ArrayList<>();
    private final List<Fault> faults = new ArrayList<>();
    private final List<Run> runs = new ArrayList<>();
    private final List<Recovery> recoveries = new ArrayList<>();
    private boolean partitions;

    static Histories of() {
        return new Histories();
    }

    /** An app "a" of OWNER created and its first version made live half a minute before 0 s. */
    static Histories withApp() {
        return of().op(-30, -29.9, "owner", Kind.CREATE_APP, "gate", "a", 201, "", Map.of(), Map.of(Facts.PERSON, OWNER, Facts.APP_KIND, "app"))
                .op(-29, -28.9, "owner", Kind.PROMOTE, "gate", "a", 200, "", Map.of(), Map.of(Facts.VERSION, "1"));
    }

    static long ms(double s) {
        return Math.round(s * 1000);
    }

    Histories with(String component) {
        components.add(component);
        return this;
    }

    /** A cell of many hosts: its plan could cut links. */
    Histories withPartitions() {
        partitions = true;
        return this;
    }

    Histories op(double start, double end, String actor, Kind kind, String gate, String app, int status, String message,
            Map<String, String> headers, Map<String, String> facts) {
        ops.add(new Op(ops.size() + 1, actor, kind, gate, app, ms(start), ms(end), status, message, headers, facts));
        return this;
    }

    /** The last op waited only {@code seconds} by the monotonic clock: the wall clock jumped while it was in flight. */
    Histories took(double seconds) {
        Op o = ops.remove(ops.size() - 1);
        ops.add(new Op(o.id(), o.actor(), o.kind(), o.gate(), o.app(), o.start(), o.end(), ms(seconds), o.status(), o.message(),
                o.headers(), o.facts()));
        return this;
    }

    Histories share(double at, String subject, int status) {
        return op(at, at + 0.1, "owner", Kind.SHARE, "gate", "a", status, "", Map.of(), Map.of(Facts.PERSON, OWNER, Facts.SUBJECT, subject));
    }

    Histories revoke(double at, String subject, int status) {
        return op(at, at + 0.1, "owner", Kind.REVOKE, "gate", "a", status, "", Map.of(), Map.of(Facts.PERSON, OWNER, Facts.SUBJECT, subject));
    }

    /** ANN opens "a" via {@code gate} with her session for "a" (marker "m1" on a 200). */
    Histories open(double at, String gate, int status) {
        return open(at, at + 0.1, ANN, "s-ann", "a", gate, status);
    }

    Histories open(double start, double end, String person, String session, String sessionApp, String gate, int status) {
        Map<String, String> facts = new HashMap<>(Map.of(Facts.PERSON, person, Facts.SESSION, session, Facts.SESSION_APP, sessionApp,
                Facts.PATH, "/"));
        if (status == 200) {
            facts.put(Facts.MARKER, "m1");
        }
        String message = switch (status) {
            case 403 -> "You don't have access to this app";
            case 503 -> "Temporarily unavailable";
            case 404 -> "No such app";
            default -> "";
        };
        return op(start, end, person, Kind.OPEN, gate, "a", status, message, Map.of(), facts);
    }

    Histories signOut(double at, String where, int status) {
        return op(at, at + 0.1, "ann", Kind.SIGN_OUT, "gate", "a", status, "", where.isEmpty() ? Map.of() : Map.of("x-qaldy-signed-out", where),
                Map.of(Facts.PERSON, ANN, Facts.SESSION, "s-ann", Facts.SESSION_APP, "a"));
    }

    /** {@code component} away from {@code down} to {@code up} s (start 0.1 s before, ready 0.1 s after). */
    Histories fault(String component, FaultKind kind, double down, double up) {
        faults.add(new Fault(faults.size() + 1, component, kind, ms(down - 0.1), ms(down), ms(up), ms(up + 0.1), ""));
        return this;
    }

    Histories run(Run run) {
        runs.add(run);
        return this;
    }

    Histories recovery(Recovery r) {
        recoveries.add(r);
        return this;
    }

    History build() {
        long end = ops.stream().mapToLong(Op::end).max().orElse(0);
        return new History(1, 0, end, components, partitions, ops, faults, runs, recoveries);
    }
}
