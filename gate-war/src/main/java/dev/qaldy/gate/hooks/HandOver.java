package dev.qaldy.gate.hooks;

import dev.qaldy.contract.health.UpstreamHealth;
import dev.qaldy.gate.platform.CellSecrets;
import dev.qaldy.gate.platform.ControlPlane;
import dev.qaldy.gate.platform.ControlPlaneHealth;
import dev.qaldy.gate.platform.GateConfig;
import jakarta.annotation.PreDestroy;
import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedScheduledExecutorService;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * Hands the {@link EdgeQueue} over to the control plane once it answers (issue 17): every
 * {@code qaldy.gate.webhook-handover-interval}, while the gate's view of the control plane is not
 * failing, each queued delivery in order of receipt goes to {@code POST
 * /api/v1/internal/hook-deliveries/<app>/<hook>} with the gate-to-control credential, and leaves the
 * queue only once the control plane took it (202) or refused it for good ({@link #refusedForGood};
 * logged). No answer, a 5xx or any other answer ends the
 * round with the delivery still first in line, so each hook's order holds. A gate killed between the
 * control plane's 202 and the removal hands it over again, and the control plane answers it as the
 * delivery already recorded: it runs once. One kept past {@code qaldy.gate.webhook-queue-max-age}
 * (PT72H, as the longest sender retries) is dropped with an audit line there, never run.
 */
@ApplicationScoped
public class HandOver {

    static final String PATH = "/api/v1/internal/hook-deliveries/";
    /** Deliveries looked at per round. */
    static final int BATCH = 200;

    @Inject
    EdgeHooks edge;

    @Inject
    GateConfig config;

    @Inject
    CellSecrets secrets;

    @Inject
    ControlPlaneHealth controlPlane;

    @Inject
    Clock clock;

    @Inject
    Logger log;

    @Resource
    ManagedScheduledExecutorService scheduler;

    @Inject
    @ConfigProperty(name = "qaldy.gate.webhook-handover-interval", defaultValue = "PT1S")
    Duration interval;

    @Inject
    @ConfigProperty(name = "qaldy.gate.webhook-handover-timeout", defaultValue = "PT10S")
    Duration timeout;

    @Inject
    @ConfigProperty(name = "qaldy.gate.webhook-queue-max-age", defaultValue = "PT72H")
    Duration maxAge;

    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(2)).followRedirects(HttpClient.Redirect.NEVER).build();
    private ScheduledFuture<?> ticking;

    void start(@Observes @Initialized(ApplicationScoped.class) Object started) {
        try {
            edge.queue(); // opened at start: the count is logged, and a damaged file is found now
        } catch (IOException | RuntimeException e) {
            log.log(Level.SEVERE, "gate: webhook queue: cannot open it; deliveries are answered 503 while the API is down", e);
        }
        ticking = scheduler.scheduleWithFixedDelay(this::tick, 1000, Math.max(100, interval.toMillis()), TimeUnit.MILLISECONDS);
    }

    @PreDestroy
    void stop() {
        if (ticking != null) {
            ticking.cancel(false);
        }
    }

    /** One round; never throws (the executor would stop calling it). */
    synchronized void tick() {
        try {
            EdgeQueue queue = edge.queue();
            while (queue.count() > 0 && !controlPlane.view().failing()) {
                List<EdgeQueue.Entry> head = queue.head(BATCH);
                for (EdgeQueue.Entry entry : head) {
                    if (!handOver(entry.delivery())) {
                        return;
                    }
                    queue.remove(entry.position());
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (IOException | RuntimeException e) {
            log.log(Level.WARNING, "gate: webhook queue: the hand-over failed: {0}", e.toString());
        }
    }

    /** True when the delivery may leave the queue. */
    boolean handOver(QueuedDelivery d) throws InterruptedException {
        boolean expired = d.receivedAt().plus(maxAge).isBefore(clock.instant());
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(config.controlUrl() + PATH + d.app() + "/" + d.hook()))
                .timeout(timeout)
                .header(ControlPlane.SERVICE_TOKEN_HEADER, secrets.toControl())
                .header("X-Qaldy-Delivery-Id", d.deliveryId())
                .header("X-Qaldy-Received-At", Long.toString(d.receivedAt().toEpochMilli()))
                .header("Qaldy-Signature", d.signature())
                .header("Content-Type", d.contentType() == null ? "application/octet-stream" : d.contentType());
        if (d.idempotencyKey() != null) {
            request.header("Idempotency-Key", d.idempotencyKey());
        }
        if (expired) {
            request.header("X-Qaldy-Expired", "true").POST(HttpRequest.BodyPublishers.noBody());
        } else {
            request.POST(HttpRequest.BodyPublishers.ofByteArray(d.body()));
        }
        UpstreamHealth.Call call = controlPlane.view().call();
        HttpResponse<String> response;
        try {
            response = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            call.failed(UpstreamHealth.Failure.NO_ANSWER, "webhook hand-over: " + e);
            return false;
        } catch (InterruptedException | RuntimeException e) {
            call.abandoned();
            throw e;
        }
        int status = response.statusCode();
        String type = response.headers().firstValue("Content-Type").orElse(null);
        if (!ControlPlane.isApiAnswer(status, type)) {
            call.failed(UpstreamHealth.Failure.ERROR_ANSWER, "webhook hand-over answered HTTP " + status);
            return false;
        }
        call.answered();
        if (status / 100 != 2 && !refusedForGood(status, response.body())) {
            log.log(Level.WARNING, "gate: webhook queue: the control plane answered HTTP {0} for delivery {1}; kept, tried again later",
                    new Object[] {status, d.deliveryId()});
            return false;
        }
        if (status / 100 == 2) {
            log.log(Level.FINE, "gate: webhook queue: delivery {0} for {1}/{2} handed over{3}",
                    new Object[] {d.deliveryId(), d.app(), d.hook(), expired ? " as expired" : ""});
        } else {
            log.log(Level.WARNING, "gate: webhook queue: the control plane refused delivery {0} for {1}/{2} (HTTP {3}: {4}); dropped",
                    new Object[] {d.deliveryId(), d.app(), d.hook(), status, response.body()});
        }
        return true;
    }

    /**
     * The control plane's answers that mean the delivery will never be taken: the hook is gone (410),
     * its signature is not the secret in force at receipt (401 {@code bad-signature}; another 401 is
     * this gate's credential), the key was reused (409), the request is not one it takes (400, 413).
     */
    static boolean refusedForGood(int status, String problem) {
        return switch (status) {
            case 400, 409, 410, 413 -> true;
            case 401 -> problem != null && problem.contains("urn:qaldy:problem:bad-signature");
            default -> false;
        };
    }
}
