package dev.qaldy.drill.cell;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The drill's HTTP: every request goes to 127.0.0.1 on the gate's port with the Host header a
 * browser would send (the console's origin or an app's own), HTTP/1.1, no redirects followed, a
 * 30 s answer timeout (a person gives up then too). Needs
 * {@code -Djdk.httpclient.allowRestrictedHeaders=host}, which bin/qaldy sets.
 */
public final class Http {

    static final Duration ANSWER_TIMEOUT = Duration.ofSeconds(30);
    private static final String[] KEPT_HEADERS = {"x-qaldy-access", "x-qaldy-site", "x-qaldy-cap", "x-qaldy-shield", "x-qaldy-code",
            "x-qaldy-signed-out", "x-qaldy-data", "x-qaldy-data-as-of", "retry-after", "location", "content-type"};

    /** The gate's session cookie on an app's origin; its Set-Cookie is kept as header "set-cookie". */
    public static final String SESSION_COOKIE = "qaldy_session";

    /** Who the requests say they are, unless a request sets its own User-Agent. */
    public static final String USER_AGENT = "qaldy-drill/1 (a person in the drill)";

    private final HttpClient client;
    private final int gatePort;
    private final String userAgent;
    private final Duration answerTimeout;

    /** @param gatePort the gate's public port on 127.0.0.1 */
    public Http(int gatePort) {
        this(HttpClient.newBuilder()
                .connectTimeout(Duration.ofSeconds(5))
                .version(HttpClient.Version.HTTP_1_1)
                .followRedirects(HttpClient.Redirect.NEVER)
                .build(), gatePort, USER_AGENT, ANSWER_TIMEOUT);
    }

    private Http(HttpClient client, int gatePort, String userAgent, Duration answerTimeout) {
        this.client = client;
        this.gatePort = gatePort;
        this.userAgent = userAgent;
        this.answerTimeout = answerTimeout;
    }

    /** The same client (connections, timeouts) talking to another gate's port, e.g. a second gate. */
    public Http onPort(int port) {
        return new Http(client, port, userAgent, answerTimeout);
    }

    /** The same client, with another User-Agent and answer timeout (a person gives up after it). */
    public Http as(String agent, Duration timeout) {
        return new Http(client, gatePort, agent, timeout);
    }

    /** The gate's port this client talks to. */
    public int port() {
        return gatePort;
    }

    /** A request to the gate for {@code host} (e.g. "localhost:8080", "guestbook.localhost:8080"). */
    public HttpRequest.Builder request(String host, String pathAndQuery) {
        return HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + gatePort + pathAndQuery))
                .timeout(answerTimeout)
                .header("Host", host)
                .header("User-Agent", userAgent);
    }

    /** Sends and records what came back; a connection error or timeout is a {@link Seen} with status 0, never thrown. */
    public Seen send(HttpRequest request) {
        long start = System.nanoTime();
        try {
            HttpResponse<String> response = client.send(request, HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
            long ms = (System.nanoTime() - start) / 1_000_000;
            Map<String, String> headers = new LinkedHashMap<>();
            for (String name : KEPT_HEADERS) {
                response.headers().firstValue(name).ifPresent(v -> headers.put(name, v));
            }
            List<String> timing = response.headers().allValues("server-timing");
            if (!timing.isEmpty()) { // what each hop waited on the control plane: the gate's and the runtime host's entries
                headers.put("server-timing", String.join(", ", timing));
            }
            response.headers().allValues("set-cookie").stream().filter(c -> c.startsWith(SESSION_COOKIE + "="))
                    .findFirst().ifPresent(c -> headers.put("set-cookie", c));
            String body = response.body() == null ? "" : response.body();
            return new Seen(response.statusCode(), Seen.messageOf(headers.getOrDefault("content-type", ""), body), ms, headers, body);
        } catch (IOException e) {
            return Seen.noAnswer(e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + e.getMessage()),
                    (System.nanoTime() - start) / 1_000_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new DrillError("interrupted", e);
        }
    }
}
