package dev.qaldy.gate.session;

import dev.qaldy.gate.platform.InternalFeed;
import jakarta.annotation.PreDestroy;
import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedScheduledExecutorService;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * Loads the sign-outs made before this gate started into {@link SignedOutSessions}, so a restart
 * does not reopen apps to tokens signed out earlier: {@code GET /api/v1/internal/signed-out-sessions},
 * {@value #PAGE} a page, retried every {@code qaldy.gate.signed-out-load-retry} until it succeeds
 * once (pushes keep the list current after that).
 */
@ApplicationScoped
public class SignedOutSessionsLoader {

    static final String PATH = "/api/v1/internal/signed-out-sessions";
    static final int PAGE = 1000;
    static final int MAX_ANSWER_BYTES = 1024 * 1024;

    @Inject
    SignedOutSessions list;

    @Inject
    InternalFeed feed;

    @Inject
    Logger log;

    @Resource
    ManagedScheduledExecutorService scheduler;

    @Inject
    @ConfigProperty(name = "qaldy.gate.signed-out-load-retry", defaultValue = "PT3S")
    Duration retry;

    @Inject
    @ConfigProperty(name = "qaldy.gate.signed-out-load-timeout", defaultValue = "PT5S")
    Duration timeout;

    @Inject
    @ConfigProperty(name = "qaldy.gate.signed-out-load-start-wait", defaultValue = "PT2S")
    Duration startWait;

    /** The gate's access timeout, ms. */
    @Inject
    @ConfigProperty(name = "qaldy.gate.access-timeout-ms", defaultValue = "1000")
    long requestWaitMillis;

    private ScheduledFuture<?> attempts;
    private final Object requestAttemptLock = new Object();
    private Future<?> requestAttempt;
    private boolean failedBefore;

    /**
     * The start waits for the first attempt at most {@code qaldy.gate.signed-out-load-start-wait}: ms
     * with the API up, at once when it refuses; only an API that never answers costs the wait.
     */
    void start(@Observes @Initialized(ApplicationScoped.class) Object started) {
        Future<?> first = scheduler.submit(this::attempt);
        try {
            first.get(Math.max(0, startWait.toMillis()), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            log.log(Level.INFO, "gate: sign-outs not loaded within {0} of the start; loading goes on in the background", startWait);
        } catch (ExecutionException e) {
            log.log(Level.WARNING, "gate: loading sign-outs failed unexpectedly", e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        attempts = scheduler.scheduleWithFixedDelay(this::attempt, Math.max(100, retry.toMillis()), Math.max(100, retry.toMillis()),
                TimeUnit.MILLISECONDS);
        if (list.loaded()) {
            stop();
        }
    }

    @PreDestroy
    void stop() {
        if (attempts != null) {
            attempts.cancel(false);
        }
    }

    /**
     * If not loaded, sets off one attempt now (one at a time for all requests) and waits for it at most
     * the access timeout, so people are let in as soon as the control plane answers again.
     */
    public boolean loadedOrTryNow() {
        if (list.loaded()) {
            return true;
        }
        Future<?> running;
        synchronized (requestAttemptLock) {
            if (requestAttempt == null || requestAttempt.isDone()) {
                requestAttempt = scheduler.submit(this::attempt);
            }
            running = requestAttempt;
        }
        try {
            running.get(Math.max(0, requestWaitMillis), TimeUnit.MILLISECONDS);
        } catch (TimeoutException | ExecutionException e) {
            // not loaded yet: the caller answers 503
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return list.loaded();
    }

    synchronized void attempt() {
        if (list.loaded()) {
            stop();
            return;
        }
        if (load(this::page)) {
            stop();
        }
    }

    /** Logs once when loaded and once when the first attempt fails; true when loaded. */
    boolean load(SignOutMarks.Pages pages) {
        try {
            long read = SignOutMarks.readAll(pages, list);
            list.markLoaded();
            if (read >= list.maxEntries()) {
                log.log(Level.WARNING, "gate: {0} sign-outs read, the list''s bound (qaldy.gate.signed-out-max-entries); more were not read", read);
            }
            log.log(Level.INFO, "gate: sign-outs loaded: {0} signed-out sessions from the control plane", read);
            return true;
        } catch (IOException | RuntimeException e) {
            if (!failedBefore) {
                failedBefore = true;
                log.log(Level.INFO, "gate: cannot load sign-outs yet ({0}); sessions alone let no one in until loaded, retried every {1}",
                        new Object[] {e.toString(), retry});
            } else {
                log.log(Level.FINE, "gate: loading sign-outs failed again: {0}", e.toString());
            }
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private JsonObject page(long cursor) throws IOException, InterruptedException {
        byte[] body = feed.page(PATH + "?after=" + cursor + "&limit=" + PAGE, timeout, MAX_ANSWER_BYTES, "signed-out sessions");
        try (JsonReader reader = Json.createReader(new ByteArrayInputStream(body))) {
            return reader.readObject();
        }
    }
}
