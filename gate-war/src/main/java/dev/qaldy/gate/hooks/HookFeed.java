package dev.qaldy.gate.hooks;

import dev.qaldy.gate.platform.InternalFeed;
import jakarta.annotation.PreDestroy;
import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedScheduledExecutorService;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import jakarta.json.Json;
import jakarta.json.JsonArray;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import jakarta.json.JsonValue;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * Keeps this gate's {@link HookBook} (issue 17): every {@code qaldy.gate.hooks.refresh} it reads
 * {@code GET /api/v1/internal/hooks?since=S} (at most {@value #MAX_PAGES} pages), as the shield
 * settings are read; pushes ({@link HookMaterialPush}) bring a change sooner. Requests never wait
 * for it. Kept in {@code qaldy.gate.hooks-dir}, else {@code ${qaldy.var}/gate-hooks}.
 */
@ApplicationScoped
public class HookFeed {

    static final String PATH = "/api/v1/internal/hooks";
    static final int PAGE = 500;
    static final int MAX_PAGES = 20;
    static final int MAX_ANSWER_BYTES = 8 * 1024 * 1024;

    @Inject
    InternalFeed feed;

    @Inject
    Logger log;

    @Resource
    ManagedScheduledExecutorService scheduler;

    @Inject
    @ConfigProperty(name = "qaldy.gate.hooks.refresh", defaultValue = "PT5S")
    Duration refresh;

    @Inject
    @ConfigProperty(name = "qaldy.gate.hooks.fetch-timeout", defaultValue = "PT5S")
    Duration fetchTimeout;

    @Inject
    @ConfigProperty(name = "qaldy.gate.hooks.max-entries", defaultValue = "100000")
    int maxEntries;

    @Inject
    @ConfigProperty(name = "qaldy.var", defaultValue = "var")
    String var;

    @Inject
    @ConfigProperty(name = "qaldy.gate.hooks-dir")
    Optional<String> dir;

    private HookBook book;
    private boolean reachable = true;
    private ScheduledFuture<?> ticking;

    void start(@Observes @Initialized(ApplicationScoped.class) Object started) {
        book();
        ticking = scheduler.scheduleWithFixedDelay(this::tick, 0, Math.max(100, refresh.toMillis()), TimeUnit.MILLISECONDS);
    }

    @PreDestroy
    void stop() {
        if (ticking != null) {
            ticking.cancel(false);
        }
    }

    /** {@code qaldy.gate.hooks-dir}, else {@code ${qaldy.var}/gate-hooks}: the learned hooks and the queue. */
    public Path directory() {
        return Path.of(dir.filter(d -> !d.isBlank()).orElse(var + "/gate-hooks"));
    }

    /** Restored from disk on first use. */
    public synchronized HookBook book() {
        if (book == null) {
            book = new HookBook(directory().resolve("hooks.json"), maxEntries, log);
            book.restore();
        }
        return book;
    }

    /** Every change since the last one read, page by page. */
    synchronized void tick() {
        try {
            boolean more = true;
            for (int page = 0; page < MAX_PAGES && more; page++) {
                more = fetchPage();
            }
            if (!reachable) {
                reachable = true;
                log.log(Level.INFO, "gate: hooks: the control plane answers again");
            }
        } catch (IOException | RuntimeException e) {
            if (reachable) {
                reachable = false;
                log.log(Level.INFO, "gate: hooks: cannot ask the control plane ({0}); what was learned stays in force",
                        e.getClass().getSimpleName() + ": " + e.getMessage());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** True when there is more. */
    private boolean fetchPage() throws IOException, InterruptedException {
        HookBook held = book();
        long since = held.next();
        byte[] body = feed.page(PATH + "?since=" + since + "&limit=" + PAGE, fetchTimeout, MAX_ANSWER_BYTES, "hooks");
        JsonObject json;
        try (JsonReader reader = Json.createReader(new ByteArrayInputStream(body))) {
            json = reader.readObject();
        }
        if (!(json.get("hooks") instanceof JsonArray hooks) || !(json.get("next") instanceof JsonNumber last)
                || !last.isIntegral() || last.longValue() < since) {
            throw new IOException("hooks: an answer without hooks or with an older position");
        }
        List<LearnedHook> changes = new ArrayList<>();
        for (JsonValue entry : hooks) {
            if (entry instanceof JsonObject object) {
                LearnedHook.read(object, problem -> log.log(Level.WARNING, "gate: hooks: {0}", problem)).ifPresent(changes::add);
            }
        }
        int taken = held.learn(changes, last.longValue());
        if (taken > 0) {
            log.log(Level.FINE, "gate: hooks: {0} changes up to {1}", new Object[] {taken, last.longValue()});
        }
        return json.getBoolean("more", false) && !hooks.isEmpty();
    }
}
