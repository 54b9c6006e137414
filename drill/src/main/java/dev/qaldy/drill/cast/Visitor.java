package dev.qaldy.drill.cast;

import dev.qaldy.drill.cell.CellControl;
import dev.qaldy.drill.cell.DrillError;
import dev.qaldy.drill.cell.Http;
import dev.qaldy.drill.cell.Seen;
import jakarta.json.JsonObject;
import java.net.URI;
import java.net.http.HttpRequest;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * One person of the drill, from outside, through the gate only: signs up and in with the public
 * API (a bearer token), and opens apps on their own origins with a one-time ticket and the
 * {@code qaldy_session} cookie the gate sets there, as a browser does.
 */
public final class Visitor {

    /** Who this person is in the report ("a person who already opened the app"). */
    public final String role;
    public final String email;
    private final String password;
    private final CellControl cell;
    private final Http http;
    private final Map<String, String> appCookies = new ConcurrentHashMap<>();
    private String token;
    private volatile java.time.Instant lastAsked;

    private Visitor(String role, String email, CellControl cell, Http http) {
        this.role = role;
        this.email = email;
        this.password = "drill " + Long.toHexString(Double.doubleToLongBits(Math.random())) + " password";
        this.cell = cell;
        this.http = http;
    }

    /** Signs a new person up and in; {@link DrillError} when the API refuses. */
    public static Visitor signUp(String role, String email, CellControl cell, Http http) {
        Visitor v = new Visitor(role, email, cell, http);
        expect(v.api("POST", "/people", "{\"email\":" + Json.quote(email) + ",\"password\":" + Json.quote(v.password) + "}"),
                201, "sign up " + email);
        expect(v.signIn(), 201, "sign in " + email);
        return v;
    }

    /** The password the drill chose at sign-up (for the console's sign-in form). */
    public String password() {
        return password;
    }

    /** Signs in (POST /api/v1/sessions); on 201 keeps the token. Returns what the person saw. */
    public Seen signIn() {
        String was = token;
        token = null;
        Seen seen = api("POST", "/sessions", "{\"email\":" + Json.quote(email) + ",\"password\":" + Json.quote(password) + "}");
        token = seen.status() == 201 ? Json.object(seen.body(), "session").getString("token") : was;
        return seen;
    }

    /** A call to the public API through the gate, as this person (bearer token once signed in). */
    public Seen api(String method, String path, String jsonBody) {
        return api(http, method, path, jsonBody);
    }

    /** As {@link #api(String, String, String)}, through the gate {@code via} talks to (e.g. a second gate). */
    public Seen api(Http via, String method, String path, String jsonBody) {
        HttpRequest.Builder request = via.request(cell.publicHost(), "/api/v1" + path).header("Accept", "application/json");
        if (token != null) {
            request.header("Authorization", "Bearer " + token);
        }
        if (jsonBody != null) {
            request.header("Content-Type", "application/json");
        }
        return via.send(request.method(method, jsonBody == null ? HttpRequest.BodyPublishers.noBody()
                : HttpRequest.BodyPublishers.ofString(jsonBody)).build());
    }

    /** Uploads a zip as a new build of {@code app} (POST /api/v1/apps/{app}/builds). */
    public Seen upload(String app, byte[] zip) {
        return http.send(http.request(cell.publicHost(), "/api/v1/apps/" + app + "/builds")
                .header("Authorization", "Bearer " + token).header("Content-Type", "application/zip")
                .header("Accept", "application/json")
                .POST(HttpRequest.BodyPublishers.ofByteArray(zip)).build());
    }

    /** A one-time ticket to open {@code app} on its own origin (POST /api/v1/tickets), as the console asks for one. */
    public Seen ticket(String app) {
        return api("POST", "/tickets", "{\"app\":" + Json.quote(app) + ",\"returnPath\":\"/\"}");
    }

    /**
     * Follows a ticket ({@link #ticket}'s 201 answer) to {@code app}'s origin through {@code via},
     * as a browser does; on the gate's 302 with a session cookie, keeps the cookie for the app.
     * Returns what the gate answered (the ticket's own answer when it was no 201).
     */
    public Seen redeem(Http via, String app, Seen ticket) {
        if (ticket.status() != 201) {
            return ticket;
        }
        URI url = URI.create(Json.object(ticket.body(), "ticket").getString("url"));
        Seen redeemed = via.send(via.request(cell.appHost(app), url.getRawPath() + "?" + url.getRawQuery()).GET().build());
        String cookie = redeemed.header("set-cookie");
        if (redeemed.status() == 302 && !cookie.isEmpty()) {
            appCookies.put(app, cookie.substring(0, cookie.indexOf(';') > 0 ? cookie.indexOf(';') : cookie.length()));
        }
        return redeemed;
    }

    /**
     * Opens an app on its own origin as a browser would: a ticket from the API, the gate's ticket
     * redirect, and the session cookie it sets. Does not load a page yet (the gate has not asked
     * about this person's access). {@link DrillError} when a step fails.
     */
    public void openApp(String app) {
        Seen ticket = ticket(app);
        expect(ticket, 201, "a ticket for " + email + " to open " + app);
        Seen redeemed = redeem(http, app, ticket);
        expect(redeemed, 302, "redeeming " + email + "'s ticket on " + app);
        if (cookie(app) == null) {
            throw new DrillError("no session cookie after redeeming " + email + "'s ticket for " + app);
        }
    }

    /** The session cookie ({@code qaldy_session=<token>}) this person holds for {@code app}'s origin, or null. */
    public String cookie(String app) {
        return appCookies.get(app);
    }

    /** Holds {@code cookie} for {@code app}'s origin from now on (null: none), e.g. to send an old one again. */
    public void useCookie(String app, String cookie) {
        if (cookie == null) {
            appCookies.remove(app);
        } else {
            appCookies.put(app, cookie);
        }
    }

    /**
     * Signs out on {@code app}'s origin ({@code POST /.qaldy/signout} from the app's own page, as its
     * sign-out button sends it) with this person's cookie, through {@code via}; the cookie is kept (a
     * browser would drop it: keep it to send it again).
     */
    public Seen signOutOf(Http via, String app) {
        HttpRequest.Builder request = via.request(cell.appHost(app), "/.qaldy/signout").header("Accept", "text/html,*/*")
                .header("Origin", "http://" + cell.appHost(app)).header("Sec-Fetch-Site", "same-origin");
        String cookie = appCookies.get(app);
        if (cookie != null) {
            request.header("Cookie", cookie);
        }
        return via.send(request.POST(HttpRequest.BodyPublishers.noBody()).build());
    }

    /** A browser-like GET of {@code path} on the app's origin with this person's cookie (if any). */
    public Seen get(String app, String path) {
        return get(app, path, Map.of());
    }

    /** As {@link #get(String, String)}, with extra request headers (e.g. a bot's User-Agent). */
    public Seen get(String app, String path, Map<String, String> headers) {
        return get(http, app, path, headers);
    }

    /** As {@link #get(String, String, Map)}, through the gate {@code via} talks to. */
    public Seen get(Http via, String app, String path, Map<String, String> headers) {
        HttpRequest.Builder request = via.request(cell.appHost(app), path).header("Accept", "text/html,*/*");
        String cookie = appCookies.get(app);
        if (cookie != null) {
            request.header("Cookie", cookie);
        }
        headers.forEach(request::setHeader);
        Seen seen = via.send(request.GET().build());
        if (seen.header("x-qaldy-access").equals("asked")) {
            lastAsked = java.time.Instant.now();
        }
        return seen;
    }

    /** A browser-like {@code POST} of JSON to {@code path} on the app's origin with this person's cookie (if any). */
    public Seen postJson(String app, String path, String json) {
        HttpRequest.Builder request = http.request(cell.appHost(app), path).header("Accept", "application/json")
                .header("Content-Type", "application/json");
        String cookie = appCookies.get(app);
        if (cookie != null) {
            request.header("Cookie", cookie);
        }
        return http.send(request.POST(HttpRequest.BodyPublishers.ofString(json)).build());
    }

    /**
     * When this person last got an answer the gate had asked the API for ({@code X-Qaldy-Access:
     * asked}), taken when the answer arrived (so no earlier than the gate's ask); null if never.
     * The gate's freshness window runs from its last ask.
     */
    public java.time.Instant lastAsked() {
        return lastAsked;
    }

    /**
     * The JSON object of an answer with {@code status} (null when its body is not a JSON object);
     * {@link DrillError} naming {@code what} for any other status.
     */
    public static JsonObject expect(Seen seen, int status, String what) {
        if (seen.status() != status) {
            throw new DrillError(what + ": expected " + status + ", got " + seen.summary());
        }
        boolean object = seen.header("content-type").contains("json") && seen.body().stripLeading().startsWith("{");
        return object ? Json.object(seen.body(), what) : null;
    }
}
