package dev.qaldy.runtime.sandbox.control;

import dev.qaldy.contract.data.DataChange;
import dev.qaldy.contract.data.DataGrants;
import dev.qaldy.contract.keys.ServiceDirection;
import dev.qaldy.runtime.bundles.control.ControlPlaneClient;
import dev.qaldy.runtime.bundles.control.ControlPlaneUnavailableException;
import dev.qaldy.runtime.bundles.control.UnexpectedAnswerException;
import dev.qaldy.runtime.platform.CellCredentials;
import dev.qaldy.runtime.platform.ServingException;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.net.URI;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Locale;
import java.util.regex.Pattern;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * The runtime host's caller of the control plane's app-scoped data API
 * ({@code /api/v1/internal/app-data/{app}/…}) on behalf of an app's {@code server.js}. Each call
 * carries the runtime host's own credential and the {@link DataGrants data grant} that came with
 * the request or job being served (the host cannot make one: issue 16), is bounded end to end by {@code qaldy.runtime.data-timeout} (default 2 s) and
 * its answer by {@link #MAX_ANSWER_BYTES}. Seed: "The Backend data API is served by the API
 * process today, so it stops with it": connect errors, timeouts, 5xx and non-JSON answers (a
 * control plane still starting) are {@link Unavailable}; nothing is remembered or queued.
 */
@ApplicationScoped
public class AppDataClient {

    /** Largest answer read: a page of 100 records of 16 KiB, with room to spare (4 MiB). */
    static final long MAX_ANSWER_BYTES = 4L * 1024 * 1024;
    /** Collection names, as the data API has them. */
    static final Pattern COLLECTION = DataChange.COLLECTION;
    /** Record ids, as the data API has them. */
    static final Pattern ID = Pattern.compile("[0-9]{1,19}");

    private ControlPlaneClient control;
    private CellCredentials credentials;
    private Duration timeout;

    protected AppDataClient() {
    }

    /** @param timeout bound on one data call, end to end (connect, answer headers and body) */
    @Inject
    public AppDataClient(ControlPlaneClient control, CellCredentials credentials,
            @ConfigProperty(name = "qaldy.runtime.data-timeout", defaultValue = "PT2S") Duration timeout) {
        this.control = control;
        this.credentials = credentials;
        this.timeout = timeout;
    }

    /**
     * An answer below 500, as JSON text ("" for none), with the position it reflects ({@code bookmark},
     * -1: none) and, for one from the replica, when the replica last heard from the feed ({@code asOf};
     * null from the control plane).
     */
    public record Reply(int status, String json, long bookmark, java.time.Instant asOf) {
    }

    /** The data API cannot be reached now: the control plane is down, hung, failing or starting. */
    public static final class Unavailable extends RuntimeException {

        private static final long serialVersionUID = 1L;

        Unavailable(String message, Throwable cause) {
            super(message, cause, false, false);
        }
    }

    /**
     * One call of the data API for {@code app}'s own data.
     *
     * @param grant      the data grant for {@code app} that came with the request or job (null or empty: none,
     *                   and the API answers 403)
     * @param method     GET, POST, PUT or DELETE
     * @param collection a collection name ({@code [a-z0-9-]{1,40}}), checked by the caller
     * @param id         a record id ({@code [0-9]{1,19}}) or null, checked by the caller
     * @param query      e.g. {@code limit=20&after=7}, or null
     * @param json       the body (a record's JSON text) or null
     * @throws Unavailable              the control plane could not be asked or answered 5xx or not JSON
     * @throws IllegalArgumentException for a collection or id outside the shapes above (a caller's bug)
     */
    public Reply call(String app, String grant, String method, String collection, String id, String query, String json) {
        if (!COLLECTION.matcher(collection).matches() || (id != null && !ID.matcher(id).matches())) {
            throw new IllegalArgumentException("not a collection name or record id");
        }
        String path = DataGrants.PATH + app + "/" + collection + (id == null ? "" : "/" + id)
                + (query == null || query.isEmpty() ? "" : "?" + query);
        String credential;
        try {
            credential = credentials.toControl();
        } catch (ServingException e) {
            throw new Unavailable("the runtime host has no credential for the control plane yet", e);
        }
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(control.base() + path))
                .header(ServiceDirection.HEADER, credential)
                .header(DataGrants.HEADER, grant == null ? "" : grant)
                .header("Accept", "application/json")
                .method(method, json == null ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofString(json, StandardCharsets.UTF_8));
        if (json != null) {
            request.header("Content-Type", "application/json");
        }
        ControlPlaneClient.Answer answer;
        try {
            // A read is not sent while the view says failing (the replica answers it at once); a write has nothing else.
            answer = method.equals("GET") ? control.exchange(request, method + " " + path, MAX_ANSWER_BYTES, timeout)
                    : control.passThrough(request, method + " " + path, MAX_ANSWER_BYTES, timeout);
        } catch (ControlPlaneUnavailableException | UnexpectedAnswerException e) {
            throw new Unavailable(e.getMessage(), e);
        }
        String type = answer.contentType().toLowerCase(Locale.ROOT);
        boolean isJson = type.startsWith("application/json") || type.startsWith("application/problem+json");
        if (answer.status() != 204 && !isJson) {
            throw new Unavailable("control plane: HTTP " + answer.status() + " " + type + " for " + path
                    + " is not the API (still starting?)", null);
        }
        return new Reply(answer.status(), new String(answer.body(), StandardCharsets.UTF_8), answer.dataBookmark(), null);
    }
}
