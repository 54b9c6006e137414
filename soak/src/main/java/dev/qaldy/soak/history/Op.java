package dev.qaldy.soak.history;

import java.util.Map;

/**
 * One request of the soak's history, timed on the soak's side: sent at {@code start}, its whole
 * answer read at {@code end} (epoch ms, to place it beside the faults and the control plane's times),
 * having waited {@code took} ms by the monotonic clock. Status 0: no answer (refused, reset or timed out).
 * A wait is {@code took}, never {@code end - start}: the clean-clone run of c3f85ef saw the wall clock
 * of every process of the machine jump 8.2 s ahead of the monotonic one at one instant (the machine was
 * frozen, or its clock stepped), and two requests in flight then "waited" 8.3 s.
 *
 * @param id      order of sending, from 1
 * @param actor   who made it ("viewer-2", "owner-a", "probe")
 * @param kind    what it was
 * @param gate    the component it went through ("gate", "gate2"; "control" for the service calls)
 * @param app     the app it concerns, or "" (sign-in, billing)
 * @param start   epoch ms just before sending
 * @param end     epoch ms once the answer was read (or given up)
 * @param took    ms from sending to the answer read, by {@link System#nanoTime()}
 * @param status  HTTP status, 0 for none
 * @param message the line a person reads (problem title and detail, a page's heading)
 * @param headers the gate's explanations (x-qaldy-access, -cap, -site, -code, -shield, -signed-out) and
 *                server-timing (what each hop waited on the control plane), lower-case
 * @param facts   what the soak knows of it (see {@link Facts}): the person, the session, a marker…
 */
public record Op(long id, String actor, Kind kind, String gate, String app, long start, long end, long took, int status, String message,
        Map<String, String> headers, Map<String, String> facts) {

    public Op {
        headers = Map.copyOf(headers);
        facts = Map.copyOf(facts);
    }

    /** An op of a history written before {@code took} was recorded: it waited {@code end - start}. */
    public Op(long id, String actor, Kind kind, String gate, String app, long start, long end, int status, String message,
            Map<String, String> headers, Map<String, String> facts) {
        this(id, actor, kind, gate, app, start, end, end - start, status, message, headers, facts);
    }

    /** A fact, or "" when it has none. */
    public String fact(String name) {
        return facts.getOrDefault(name, "");
    }

    /** A header the gate sent, or "". */
    public String header(String name) {
        return headers.getOrDefault(name, "");
    }

    /** The API (or the gate for it) answered 2xx: the change was made. */
    public boolean ok() {
        return status >= 200 && status < 300;
    }

    /**
     * The change may or may not have been made (Jepsen's indeterminate operation): no answer, or a
     * 5xx (the gate gave up on the API, or the API failed mid-way).
     */
    public boolean unknown() {
        return status == 0 || status >= 500;
    }

    /** A 4xx: refused before anything changed (also the shield's 429). */
    public boolean refused() {
        return status >= 400 && status < 500;
    }

    /** Whether this request was in flight at any moment of [from, to]. */
    public boolean overlaps(long from, long to) {
        return start <= to && end >= from;
    }

    /** "#12 viewer-2 OPEN a via gate: 200 (asked)": one line for a report. */
    public String line() {
        StringBuilder b = new StringBuilder("#").append(id).append(' ').append(actor).append(' ').append(kind);
        if (!app.isEmpty()) {
            b.append(' ').append(app);
        }
        if (!fact(Facts.PATH).isEmpty() && !fact(Facts.PATH).equals("/")) {
            b.append(fact(Facts.PATH));
        }
        if (!fact(Facts.SUBJECT).isEmpty()) {
            b.append(" → ").append(fact(Facts.SUBJECT));
        }
        b.append(" via ").append(gate).append(": ").append(status == 0 ? "no answer" : Integer.toString(status));
        if (!message.isBlank()) {
            b.append(" “").append(message.length() > 90 ? message.substring(0, 89) + "…" : message).append('”');
        }
        headers.forEach((k, v) -> b.append(", ").append(k.replace("x-qaldy-", "")).append(' ').append(v));
        b.append(" (").append(took).append(" ms)");
        return b.toString();
    }
}
