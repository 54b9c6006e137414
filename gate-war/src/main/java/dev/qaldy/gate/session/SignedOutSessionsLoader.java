package dev.qaldy.gate.session;

import dev.qaldy.gate.platform.ControlPlaneHealth;
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
 * once. Pushes keep the list current after that; a push that did not reach this gate (a partition:
 * the control plane logs it and answers the sign-out anyway) is made up by reading the list again
 * whenever the control plane answers this gate again after failing, and every
 * {@code qaldy.gate.signed-out-refresh} (a push lost while the gate still reached the API): before,
 * such a token opened apps on this gate until it restarted or the token expired (issue 19).
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

    /** How often the whole list is read again once loaded, for pushes that never arrived. */
    @Inject
    @ConfigProperty(name = "qaldy.gate.signed-out-refresh", defaultValue = "PT1M")
    Duration refresh;

    @Inject
    ControlPlaneHealth controlPlane;

    /** The gate's access timeout, ms. */
    @Inject
    @ConfigProperty(name = "qaldy.gate.access-timeout-ms", defaultValue = "1000")
    long requestWaitMillis;

    private ScheduledFuture<?> attempts;
    private ScheduledFuture<?> refreshes;
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
        long every = Math.max(1_000, refresh.toMillis());
        refreshes = scheduler.scheduleWithFixedDelay(this::refresh, every, every, TimeUnit.MILLISECONDS);
        Runnable refreshNow = this::refresh;
        controlPlane.view().onUp(() -> scheduler.execute(refreshNow)); // after a failure pushes may have been lost
    }

    @PreDestroy
    void shutdown() {
        stop();
        if (refreshes != null) {
            refreshes.cancel(false);
        }
    }

    /** Stops the load's retries (the refreshes go on). */
    void stop() {
        if (attempts != null) {
            attempts.cancel(false);
        }
    }

    /** Once loaded: reads the whole list again, for sign-outs whose push never reached this gate. */
    void refresh() {
        if (!controlPlane.view().failing()) {
            refresh(this::page);
        }
    }

    /** @return how many sign-outs the list lacked (0 when not loaded yet or the read failed) */
    synchronized long refresh(SignOutMarks.Pages pages) {
        if (!list.loaded()) {
            return 0;
        }
        long before = list.size();
        try {
            SignOutMarks.readAll(pages, list);
            long missed = Math.max(0, list.size() - before);
            if (missed > 0) {
                log.log(Level.WARNING, "gate: {0} sign-outs had not reached this gate by push (read again from the control plane); "
                        + "their sessions are refused from now on", missed);
            }
            return missed;
        } catch (IOException | RuntimeException e) {
            log.log(Level.FINE, "gate: reading the sign-outs again failed: {0}", e.toString());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return 0;
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
