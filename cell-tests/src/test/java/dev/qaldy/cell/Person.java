package dev.qaldy.cell;

import static org.assertj.core.api.Assertions.assertThat;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import java.io.IOException;
import java.io.StringReader;
import java.net.URI;
import java.net.URLDecoder;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.Map;
import org.awaitility.Awaitility;
import java.time.Duration;

/**
 * One person using a cell from outside, through the gate only: signs up, signs in with the API,
 * and opens apps on their own origins with a one-time ticket and the session cookie the gate sets.
 */
public final class Person {

    private final Cell cell;
    public final String email;
    public final String password;
    private String token;
    private final Map<String, String> appCookies = new ConcurrentHashMap<>();

    private Person(Cell cell, String email, String password) {
        this.cell = cell;
        this.email = email;
        this.password = password;
    }

    /** Signs up a new person through the gate's /api and signs in. */
    public static Person signUp(Cell cell, String email) throws Exception {
        Person person = new Person(cell, email, "correct horse " + email.length() + " battery");
        HttpResponse<String> created = person.api("POST", "/people",
                "{\"email\":\"" + email + "\",\"password\":\"" + person.password + "\"}");
        assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
        person.signIn();
        return person;
    }

    /** An existing person (e.g. the demo person); signs in. */
    public static Person existing(Cell cell, String email, String password) throws Exception {
        Person person = new Person(cell, email, password);
        person.signIn();
        return person;
    }

    void signIn() throws Exception {
        HttpResponse<String> session = api("POST", "/sessions",
                "{\"email\":\"" + email + "\",\"password\":\"" + password + "\"}");
        assertThat(session.statusCode()).as(session.body()).isEqualTo(201);
        token = json(session.body()).getString("token");
    }

    public String token() {
        return token;
    }

    /** A call to the public API through the gate, as this person (Bearer token once signed in). */
    public HttpResponse<String> api(String method, String path, String jsonBody) throws Exception {
        HttpRequest.Builder request = cell.request(cell.publicHost(), "/api/v1" + path);
        if (token != null) {
            request.header("Authorization", "Bearer " + token);
        }
        if (jsonBody != null) {
            request.header("Content-Type", "application/json");
        }
        request.method(method, jsonBody == null ? HttpRequest.BodyPublishers.noBody()
                : HttpRequest.BodyPublishers.ofString(jsonBody));
        return cell.send(request.build());
    }

    /** Creates an app and publishes the folder {@code source} as its live version; returns the version. */
    public long publish(String app, Path source) throws Exception {
        HttpResponse<String> created = api("POST", "/apps", "{\"name\":\"" + app + "\"}");
        assertThat(created.statusCode()).as(created.body()).isIn(201, 409);
        long version = build(app, zip(source, app));
        HttpResponse<String> live = api("PUT", "/apps/" + app + "/live", "{\"version\":" + version + "}");
        assertThat(live.statusCode()).as(live.body()).isEqualTo(200);
        return version;
    }

    /** Uploads an archive, waits for the build to end, and returns its version when it succeeded. */
    public long build(String app, byte[] archive) throws Exception {
        HttpResponse<String> upload = upload(app, archive);
        assertThat(upload.statusCode()).as(upload.body()).isEqualTo(202);
        long version = json(upload.body()).getJsonNumber("version").longValue();
        JsonObject done = awaitBuild(app, version);
        assertThat(done.getString("status")).as(done.toString()).isEqualTo("succeeded");
        return version;
    }

    public HttpResponse<String> upload(String app, byte[] archive) throws Exception {
        return cell.send(cell.request(cell.publicHost(), "/api/v1/apps/" + app + "/builds")
                .header("Authorization", "Bearer " + token)
                .header("Content-Type", "application/zip")
                .POST(HttpRequest.BodyPublishers.ofByteArray(archive)).build());
    }

    /** Polls a build until it succeeded or failed; returns its last JSON. */
    public JsonObject awaitBuild(String app, long version) {
        JsonObject[] last = new JsonObject[1];
        Awaitility.await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(300)).until(() -> {
            HttpResponse<String> build = api("GET", "/apps/" + app + "/builds/" + version, null);
            last[0] = json(build.body());
            return List.of("succeeded", "failed").contains(last[0].getString("status", ""));
        });
        return last[0];
    }

    /**
     * Opens an app on its own origin as a browser would: a ticket from the API, the gate's
     * /.qaldy/ticket redirect, and the session cookie it sets on the app's origin.
     */
    public void openApp(String app) throws Exception {
        HttpResponse<String> ticket = api("POST", "/tickets", "{\"app\":\"" + app + "\",\"returnPath\":\"/\"}");
        assertThat(ticket.statusCode()).as(ticket.body()).isEqualTo(201);
        URI url = URI.create(json(ticket.body()).getString("url"));
        assertThat(url.getHost()).isEqualTo(app + ".localhost");
        HttpResponse<String> redeemed = cell.send(cell.request(cell.appHost(app), url.getRawPath() + "?" + url.getRawQuery())
                .GET().build());
        assertThat(redeemed.statusCode()).as(redeemed.body()).isEqualTo(302);
        assertThat(redeemed.headers().firstValue("Location")).hasValue("/");
        String setCookie = redeemed.headers().allValues("Set-Cookie").stream()
                .filter(c -> c.startsWith("qaldy_session=")).findFirst().orElseThrow();
        assertThat(setCookie).contains("HttpOnly");
        appCookies.put(app, setCookie.substring(0, setCookie.indexOf(';')));
    }

    /** The {@code qaldy_session=<token>} cookie the gate set on {@code app}'s origin, or null. */
    public String appCookie(String app) {
        return appCookies.get(app);
    }

    /** A GET of {@code path} on the app's origin with this person's app cookie, as a browser would send it. */
    public HttpResponse<String> get(String app, String path) throws Exception {
        return cell.send(browser(app, path).GET().build());
    }

    /** A POST of JSON on the app's origin with this person's app cookie. */
    public HttpResponse<String> postJson(String app, String path, String body) throws Exception {
        return cell.send(browser(app, path).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build());
    }

    /** As {@link #postJson}, from a script that wants JSON back ({@code Accept: application/json}), e.g. a fetch. */
    public HttpResponse<String> postJsonForJson(String app, String path, String body) throws Exception {
        return cell.send(browser(app, path).setHeader("Accept", "application/json").header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build());
    }

    private HttpRequest.Builder browser(String app, String path) {
        return browserRequest("gate", app, path);
    }

    /** A browser-like request to one gate ("gate" or "gate2") on the app's origin, with this person's cookie. */
    public HttpRequest.Builder browserRequest(String gate, String app, String path) {
        HttpRequest.Builder request = cell.request(gate, cell.appHost(app), path).header("Accept", "text/html,*/*");
        String cookie = appCookies.get(app);
        if (cookie != null) {
            request.header("Cookie", cookie);
        }
        return request;
    }

    public static JsonObject json(String body) {
        try (JsonReader reader = Json.createReader(new StringReader(body))) {
            return reader.readObject();
        }
    }

    /** A zip of a folder's files, paths relative to it, as a person would upload it. */
    public static byte[] zip(Path folder) throws IOException {
        return dev.qaldy.drill.cast.Zips.of(folder);
    }

    /** The folder's files as an archive made for {@code app} (its qaldy.json names it). */
    public static byte[] zip(Path folder, String app) {
        return dev.qaldy.drill.cast.Zips.of(folder, app);
    }

    static String decode(String s) {
        return URLDecoder.decode(s, StandardCharsets.UTF_8);
    }
}
