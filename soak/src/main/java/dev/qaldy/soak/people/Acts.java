package dev.qaldy.soak.people;

import dev.qaldy.drill.cast.Hooks;
import dev.qaldy.drill.cast.Json;
import dev.qaldy.drill.cast.Usage;
import dev.qaldy.drill.cast.Visitor;
import dev.qaldy.drill.cell.CellControl;
import dev.qaldy.drill.cell.Http;
import dev.qaldy.drill.cell.Seen;
import dev.qaldy.soak.history.Facts;
import dev.qaldy.soak.history.Kind;
import dev.qaldy.soak.history.Op;
import dev.qaldy.soak.history.Recorder;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Every request of the soak's people, made and recorded: who, what, through which gate, the
 * answer, and the facts the checker needs (the person, the session and the app it was made for,
 * a page's build marker, a delivery's id, what the billing view said). Calls to the public API and
 * to the sign-in paths are paced under the shield's per-client limits (every soak person shares
 * one address).
 */
public final class Acts {

    /** What one request did: the recorded op and what came back. */
    public record Did(Op op, Seen seen) {
    }

    private final Recorder recorder;
    private final CellControl cell;
    private final Map<String, Http> gates;
    private final Http http;
    private final Pace api = new Pace(240, 40);
    private final Pace signIns = new Pace(25, 15);

    /**
     * @param gates the cell's gates by component name ("gate", "gate2"), each an {@link Http} to its port
     */
    public Acts(Recorder recorder, CellControl cell, Map<String, Http> gates) {
        this.recorder = recorder;
        this.cell = cell;
        this.gates = new LinkedHashMap<>(gates);
        this.http = gates.get("gate");
    }

    public List<String> gates() {
        return List.copyOf(gates.keySet());
    }

    public Http via(String gate) {
        return gates.get(gate);
    }

    public CellControl cell() {
        return cell;
    }

    /** Signs a new person up and in (unrecorded: no invariant reads it), paced as two sign-in calls. */
    public Visitor signUp(String role, String email) {
        signIns.take();
        signIns.take();
        return Visitor.signUp(role, email, cell, http);
    }

    /** A page of {@code app}'s origin as {@code who} (null: nobody) opens it, with extra request headers. */
    public Did open(String actor, Visitor who, String gate, String app, String path, Map<String, String> headers, Map<String, String> facts) {
        Map<String, String> f = new LinkedHashMap<>();
        f.put(Facts.PERSON, who == null ? Facts.ANONYMOUS : who.email);
        f.put(Facts.PATH, path);
        String cookie = headers.containsKey("Cookie") ? headers.get("Cookie") : who == null ? null : who.cookie(app);
        if (cookie != null) {
            f.put(Facts.SESSION, hash(cookie));
            f.put(Facts.SESSION_APP, app);
        }
        f.putAll(facts);
        Http via = gates.get(gate);
        return record(actor, Kind.OPEN, gate, app, f, () -> {
            if (who != null) {
                return who.get(via, app, path, headers);
            }
            var request = via.request(cell.appHost(app), path).header("Accept", "text/html,*/*");
            headers.forEach(request::setHeader);
            return via.send(request.GET().build());
        }, seen -> seen.status() == 200 ? Map.of(Facts.MARKER, Pages.markerOf(seen.body())) : Map.of());
    }

    /** A call of the public API through {@code gate} as {@code who}. */
    public Did api(String actor, Kind kind, Visitor who, String gate, String method, String path, String body, String app,
            Map<String, String> facts) {
        Map<String, String> f = new LinkedHashMap<>();
        f.put(Facts.PERSON, who.email);
        f.putAll(facts);
        boolean signIn = path.equals("/sessions") || path.equals("/people");
        (signIn ? signIns : api).take(); // before the clock starts: the wait is the soak's, not the cell's
        return record(actor, kind, gate, app, f, () -> who.api(gates.get(gate), method, path, body), seen -> learned(kind, seen));
    }

    /** A new build of {@code app} with {@code marker} on its pages (the version the API gave it is learned). */
    public Did upload(String actor, Visitor who, String app, byte[] zip, String marker, Map<String, String> facts) {
        Map<String, String> f = new LinkedHashMap<>(facts);
        f.put(Facts.PERSON, who.email);
        f.put(Facts.MARKER, marker);
        api.take();
        return record(actor, Kind.BUILD, "gate", app, f, () -> who.upload(app, zip), seen -> learned(Kind.BUILD, seen));
    }

    /**
     * Opens {@code app} as a browser does: a ticket from the API, then its redirect through
     * {@code gate}, which sets the session cookie; true when {@code who} now holds a new cookie.
     */
    public boolean signInto(String actor, Visitor who, String gate, String app, Map<String, String> facts) {
        Did ticket = api(actor, Kind.TICKET, who, gate, "POST", "/tickets", "{\"app\":" + Json.quote(app) + ",\"returnPath\":\"/\"}",
                app, facts);
        if (ticket.seen().status() != 201) {
            return false;
        }
        String before = who.cookie(app);
        Map<String, String> f = new LinkedHashMap<>(facts);
        f.put(Facts.PERSON, who.email);
        Did redeemed = record(actor, Kind.REDEEM, gate, app, f, () -> who.redeem(gates.get(gate), app, ticket.seen()), s -> Map.of());
        String after = who.cookie(app);
        return redeemed.seen().status() == 302 && after != null && !after.equals(before);
    }

    /** {@code /.qaldy/signout} on {@code app}'s origin through {@code gate}, with {@code who}'s cookie (which they keep). */
    public Did signOut(String actor, Visitor who, String gate, String app) {
        String cookie = who.cookie(app);
        Map<String, String> f = new LinkedHashMap<>();
        f.put(Facts.PERSON, who.email);
        if (cookie != null) {
            f.put(Facts.SESSION, hash(cookie));
            f.put(Facts.SESSION_APP, app);
        }
        return record(actor, Kind.SIGN_OUT, gate, app, f, () -> who.signOutOf(gates.get(gate), app), s -> Map.of());
    }

    /** One attempt of a webhook delivery. */
    public Did webhook(String actor, String gate, String app, String hook, String secret, String key) {
        byte[] body = ("{\"key\":\"" + key + "\"}").getBytes(StandardCharsets.UTF_8);
        api.take();
        return record(actor, Kind.WEBHOOK, gate, app, Map.of(Facts.KEY, key, Facts.HOOK, hook),
                () -> Hooks.deliver(gates.get(gate), cell.publicHost(), app, hook, secret, key, body), seen -> learned(Kind.WEBHOOK, seen));
    }

    /** A usage report for {@code app} on the control plane's own port, as a gate sends what it counted. */
    public Did usage(String actor, String batch, String app, long requests, String account, Map<String, String> facts) {
        Map<String, String> f = new LinkedHashMap<>(facts);
        f.put(Facts.ACCOUNT, account);
        return record(actor, Kind.USAGE, "control", app, f, () -> Usage.report(cell, http, batch, app, requests), s -> Map.of());
    }

    /** Records {@code call} as one op; {@code learn} reads facts from the answer. */
    Did record(String actor, Kind kind, String gate, String app, Map<String, String> facts, Supplier<Seen> call,
            java.util.function.Function<Seen, Map<String, String>> learn) {
        Seen[] seen = new Seen[1];
        Op op = recorder.record(actor, kind, gate, app, facts, () -> {
            seen[0] = call.get();
            Map<String, String> headers = new LinkedHashMap<>();
            seen[0].headers().forEach((k, v) -> {
                if (k.startsWith("x-qaldy-") || k.equals("server-timing")) {
                    headers.put(k, v);
                }
            });
            Map<String, String> learned = new LinkedHashMap<>(learn.apply(seen[0]));
            if (seen[0].header("content-type").contains("problem+json")) {
                learned.put(Facts.PROBLEM, "yes");
            }
            return new Recorder.Answer(seen[0].status(), seen[0].message(), headers, learned);
        });
        return new Did(op, seen[0]);
    }

    private static Map<String, String> learned(Kind kind, Seen seen) {
        if (seen.status() < 200 || seen.status() >= 300 || !seen.body().stripLeading().startsWith("{")) {
            return Map.of();
        }
        try {
            var json = Json.object(seen.body(), kind.name());
            return switch (kind) {
                case BUILD -> json.containsKey("version") ? Map.of(Facts.VERSION, json.get("version").toString()) : Map.of();
                case WEBHOOK -> json.containsKey("deliveryId") ? Map.of(Facts.DELIVERY, json.getString("deliveryId", "")) : Map.of();
                case CAP, BILLING -> json.containsKey("asleep") ? Map.of(Facts.ASLEEP, Boolean.toString(json.getBoolean("asleep"))) : Map.of();
                default -> Map.of();
            };
        } catch (RuntimeException e) {
            return Map.of();
        }
    }

    /** A short name for a session token (its cookie), never the token itself. */
    static String hash(String cookie) {
        try {
            byte[] d = MessageDigest.getInstance("SHA-256").digest(cookie.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(d, 0, 6);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
