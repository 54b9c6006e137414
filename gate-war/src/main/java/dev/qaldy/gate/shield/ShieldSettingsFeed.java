package dev.qaldy.gate.shield;

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
import java.util.Optional;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * Keeps the gate's copy of what app owners set for their shield through the control plane, in the
 * background: every {@code qaldy.gate.shield.refresh} (default 15 s) it asks
 * {@code GET /api/v1/internal/shield-settings?since=S} for the changes after the last one it read,
 * bounded by {@code qaldy.gate.shield.fetch-timeout} (5 s) per page and {@value #MAX_PAGES} pages,
 * and hands them to {@link ShieldSettings}. The hot path never waits for it: a request reads the
 * settings already held. While the API is down the gate keeps the last settings it knew (seed: per-app
 * settings the gate last fetched stay in force), also across a restart, from its copy on disk
 * ({@code qaldy.gate.shield-dir}, default {@code ${qaldy.var}/gate-shield}); an app it never learned
 * anything for gets config's settings.
 */
@ApplicationScoped
public class ShieldSettingsFeed {

    static final String PATH = "/api/v1/internal/shield-settings";
    static final int PAGE = 500;
    static final int MAX_PAGES = 20;
    static final int MAX_ANSWER_BYTES = 8 * 1024 * 1024;

    @Inject
    Shield shield;

    @Inject
    InternalFeed feed;

    @Inject
    Logger log;

    @Resource
    ManagedScheduledExecutorService scheduler;

    @Inject
    @ConfigProperty(name = "qaldy.gate.shield.refresh", defaultValue = "PT15S")
    Duration refresh;

    @Inject
    @ConfigProperty(name = "qaldy.gate.shield.fetch-timeout", defaultValue = "PT5S")
    Duration fetchTimeout;

    @Inject
    @ConfigProperty(name = "qaldy.var", defaultValue = "var")
    String var;

    @Inject
    @ConfigProperty(name = "qaldy.gate.shield-dir")
    Optional<String> dir;

    private long next;
    private boolean reachable = true;
    private ScheduledFuture<?> ticking;

    /** Reads the copy on disk, then starts fetching changes, when the application starts. */
    void start(@Observes @Initialized(ApplicationScoped.class) Object started) {
        synchronized (this) {
            LearnedSettingsFile.Held held = LearnedSettingsFile.read(file(), problem ->
                    log.log(Level.WARNING, "gate: shield settings on disk: {0}", problem));
            held.settings().forEach(this::learn);
            next = held.next();
            log.log(Level.INFO, "gate: shield: {0} apps'' own settings read from {1} (up to change {2}); changes fetched every {3}",
                    new Object[] {held.settings().size(), file(), next, refresh});
        }
        ticking = scheduler.scheduleWithFixedDelay(this::tick, 0, Math.max(100, refresh.toMillis()), TimeUnit.MILLISECONDS);
    }

    @PreDestroy
    void stop() {
        if (ticking != null) {
            ticking.cancel(false);
        }
    }

    /** One refresh: every change since the last one read, page by page, then the copy on disk. */
    synchronized void tick() {
        long before = next;
        try {
            for (int page = 0; page < MAX_PAGES; page++) {
                if (!fetchPage()) {
                    break;
                }
            }
            if (!reachable) {
                reachable = true;
                log.log(Level.INFO, "gate: shield settings: the control plane answers again");
            }
        } catch (IOException | RuntimeException e) {
            if (reachable) {
                reachable = false;
                log.log(Level.INFO, "gate: shield settings: cannot ask the control plane ({0}); the last settings stay in force",
                        e.toString());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (next != before) {
            try {
                LearnedSettingsFile.write(file(), next, shield.settings().learned().values());
            } catch (IOException e) {
                log.log(Level.WARNING, "gate: cannot write shield settings to " + file(), e);
            }
        }
    }

    /** Reads one page after {@link #next}; true when there is more. */
    private boolean fetchPage() throws IOException, InterruptedException {
        byte[] body = feed.page(PATH + "?since=" + next + "&limit=" + PAGE, fetchTimeout, MAX_ANSWER_BYTES, "shield settings");
        JsonObject json;
        try (JsonReader reader = Json.createReader(new ByteArrayInputStream(body))) {
            json = reader.readObject();
        }
        if (!(json.get("settings") instanceof JsonArray settings) || !(json.get("next") instanceof JsonNumber last)
                || !last.isIntegral() || last.longValue() < next) {
            throw new IOException("shield settings: an answer without settings or with an older position");
        }
        for (JsonValue entry : settings) {
            if (entry instanceof JsonObject object) {
                OwnerSettings.read(object, problem -> log.log(Level.WARNING, "gate: shield settings: {0}", problem))
                        .ifPresent(this::learn);
            }
        }
        next = last.longValue();
        return json.getBoolean("more", false) && !settings.isEmpty();
    }

    private void learn(OwnerSettings owner) {
        if (!shield.settings().learn(owner)) {
            log.log(Level.WARNING, "gate: shield: too many apps with settings of their own; {0}''s are not kept (config''s apply)",
                    owner.app());
        } else {
            log.log(Level.FINE, "gate: shield: {0} settings of change {1}", new Object[] {owner.app(), owner.sequence()});
        }
    }

    Path file() {
        return Path.of(dir.filter(d -> !d.isBlank()).orElse(var + "/gate-shield")).resolve("shield-settings.json");
    }
}
