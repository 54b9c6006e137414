package dev.qaldy.gate.hooks;

import dev.qaldy.contract.hooks.HookSignature;
import dev.qaldy.gate.platform.Page;
import dev.qaldy.gate.platform.Pages;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.json.Json;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.UUID;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * Answers a webhook delivery at the edge when the API cannot be asked (issue 17): checked with what
 * this gate learned ({@link EdgeCheck}), a right one appended to the {@link EdgeQueue} and answered
 * {@code 202 {"deliveryId","queued":true}} only once it is on disk. The queue's bounds are
 * {@code qaldy.gate.webhook-queue-max-per-app} / {@code -max-bytes-per-app} / {@code -max} /
 * {@code -max-bytes}; full → 503 with {@code Retry-After}.
 */
@ApplicationScoped
public class EdgeHooks {

    /** A delivery as the gate read it; {@code body} whole, within the hook's size limit. */
    public record Delivery(String app, String hook, String signature, boolean oldScheme, String idempotencyKey, String contentType,
            byte[] body) {
    }

    /** Longest {@code Idempotency-Key}, in characters (the control plane's rule). */
    static final int MAX_KEY_LENGTH = 200;

    @Inject
    HookFeed feed;

    @Inject
    Clock clock;

    @Inject
    Logger log;

    @Inject
    @ConfigProperty(name = "qaldy.webhooks.tolerance", defaultValue = "PT5M")
    Duration tolerance;

    @Inject
    @ConfigProperty(name = "qaldy.gate.webhook-queue-max-per-app", defaultValue = "1000")
    int maxPerApp;

    @Inject
    @ConfigProperty(name = "qaldy.gate.webhook-queue-max-bytes-per-app", defaultValue = "67108864")
    long maxBytesPerApp;

    @Inject
    @ConfigProperty(name = "qaldy.gate.webhook-queue-max", defaultValue = "10000")
    int maxInCell;

    @Inject
    @ConfigProperty(name = "qaldy.gate.webhook-queue-max-bytes", defaultValue = "268435456")
    long maxBytesInCell;

    private EdgeQueue queue;

    /** Opened on first use. */
    public synchronized EdgeQueue queue() throws IOException {
        if (queue == null) {
            queue = new EdgeQueue(feed.directory(), new EdgeQueue.Limits(maxPerApp, maxBytesPerApp, maxInCell, maxBytesInCell), log);
            log.log(Level.INFO, "gate: webhook queue: {0} deliveries wait in {1}", new Object[] {queue.count(), feed.directory()});
        }
        return queue;
    }

    @PreDestroy
    synchronized void stop() {
        if (queue != null) {
            queue.close();
        }
    }

    /** True while deliveries for this hook wait at the edge: a new one is queued behind them, not sent past them. */
    public boolean waiting(String app, String hook) {
        try {
            return queue().holds(app, hook);
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }

    /** Checks, queues and answers; never a 2xx unless the delivery is on disk. */
    public void answer(Delivery d, HttpServletResponse res) throws IOException {
        Instant now = clock.instant();
        EdgeCheck.Decision decision = EdgeCheck.decide(feed.book().find(d.app(), d.hook()), d.body(), d.signature(), now, tolerance);
        switch (decision.outcome()) {
            case UNKNOWN -> {
                problem(res, new Page(503, "control-plane-unreachable", "Control plane unreachable",
                        "The control plane is unreachable and this gate cannot check deliveries to this hook; nothing was "
                                + "recorded, so send this delivery again later.", null, null));
                return;
            }
            case REFUSE -> {
                problem(res, new Page(401, "bad-signature", "Bad signature",
                        HookSignature.refusal(decision.verdict(), d.signature(), d.oldScheme(), now, tolerance), null, null));
                return;
            }
            default -> {
                // queued below
            }
        }
        String key = d.idempotencyKey() == null || d.idempotencyKey().isBlank() ? null : d.idempotencyKey().trim();
        if (key != null && (key.length() > MAX_KEY_LENGTH || !key.chars().allMatch(c -> c >= 0x21 && c <= 0x7e))) {
            problem(res, Page.badRequest("Idempotency-Key must be 1 to " + MAX_KEY_LENGTH
                    + " printable ASCII characters without spaces"));
            return;
        }
        EdgeQueue.Appended appended;
        try {
            appended = queue().append(new QueuedDelivery(UUID.randomUUID().toString(), d.app(), d.hook(), now, d.signature(), key,
                    d.contentType(), d.body()));
        } catch (IOException | RuntimeException e) {
            log.log(Level.WARNING, "gate: webhook queue: cannot write a delivery for {0}/{1}: {2}",
                    new Object[] {d.app(), d.hook(), e.toString()});
            problem(res, new Page(503, "queue-unavailable", "Temporarily unavailable",
                    "The control plane is unreachable and this delivery could not be queued; nothing was recorded, so send it again.",
                    null, null));
            return;
        }
        if (appended instanceof EdgeQueue.Queued queued) {
            accepted(res, queued);
        } else if (appended instanceof EdgeQueue.Full full) {
            log.log(Level.INFO, "gate: webhook queue: {0}; a delivery for {1}/{2} was answered 503", new Object[] {full.why(),
                    d.app(), d.hook()});
            problem(res, new Page(503, "queue-full", "Queue full",
                    "The control plane is unreachable and " + full.why() + "; nothing was recorded, so send this delivery again later.",
                    null, null));
        } else {
            problem(res, new Page(409, "conflict", "Conflict", "this idempotency key was already used for a different body", null, null));
        }
    }

    private static void accepted(HttpServletResponse res, EdgeQueue.Queued queued) throws IOException {
        byte[] body = Json.createObjectBuilder().add("deliveryId", queued.deliveryId()).add("queued", true).build().toString()
                .getBytes(StandardCharsets.UTF_8);
        res.setStatus(202);
        Pages.securityHeaders(res);
        res.setHeader("Cache-Control", "no-store");
        res.setHeader("X-Qaldy-Replayed", Boolean.toString(queued.replayed()));
        res.setContentType("application/json");
        res.setContentLength(body.length);
        try (OutputStream out = res.getOutputStream()) {
            out.write(body);
        }
    }

    private static void problem(HttpServletResponse res, Page page) throws IOException {
        Pages.sendProblem(res, page);
    }
}
