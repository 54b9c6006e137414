package dev.qaldy.gate.shield;

import dev.qaldy.contract.files.KeptFile;
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
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * Keeps the owners' shield settings in the background: every {@code qaldy.gate.shield.refresh} it
 * reads {@code GET /api/v1/internal/shield-settings?since=S} (at most {@value #MAX_PAGES} pages) into
 * {@link ShieldSettings}; requests never wait for it. The last settings stay in force while the API
 * is down (seed), also across a restart, from the copy in the shield's folder. An unreadable copy is
 * set aside and the feed read again from its start; until then app traffic gets 503
 * ({@link ShieldSettings#unknown()}), never config's settings in place of an owner's.
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

    private long next;
    private boolean reachable = true;
    private ScheduledFuture<?> ticking;

    void start(@Observes @Initialized(ApplicationScoped.class) Object started) {
        synchronized (this) {
            LearnedSettingsFile.Read read = LearnedSettingsFile.read(file());
            if (read instanceof LearnedSettingsFile.Held held) {
                if (!held.complete()) {
                    shield.settings().unknown();
                }
                held.settings().forEach(this::learn);
                next = held.next();
                log.log(Level.INFO, "gate: shield: {0} apps'' own settings read from {1} (up to change {2}{3}); changes fetched every {4}",
                        new Object[] {held.settings().size(), file(), next, held.complete() ? ""
                                : ", not all yet: app traffic gets 503 until the rest is fetched", refresh});
            } else if (read instanceof LearnedSettingsFile.Corrupt corrupt) {
                shield.settings().unknown();
                next = 0;
                log.log(Level.WARNING, "gate: shield: cannot read the apps'' own settings kept in {0} ({1}); {2}; until they are "
                        + "fetched again from the control plane, what owners set is unknown and app traffic gets 503",
                        new Object[] {file(), corrupt.why(), KeptFile.setAsideSaying(file())});
                keep(); // a gate restarted before the feed was read again still knows it knows nothing
            } else {
                log.log(Level.INFO, "gate: shield: no apps'' own settings kept in {0} yet; changes fetched every {1}",
                        new Object[] {file(), refresh});
            }
        }
        ticking = scheduler.scheduleWithFixedDelay(this::tick, 0, Math.max(100, refresh.toMillis()), TimeUnit.MILLISECONDS);
    }

    @PreDestroy
    void stop() {
        if (ticking != null) {
            ticking.cancel(false);
        }
    }

    /** Every change since the last one read, page by page, then the copy on disk. */
    synchronized void tick() {
        long before = next;
        boolean knownNow = false;
        try {
            boolean whole = false;
            for (int page = 0; page < MAX_PAGES && !whole; page++) {
                whole = !fetchPage();
            }
            if (whole && !shield.settings().isKnown()) {
                shield.settings().known();
                knownNow = true;
                log.log(Level.INFO, "gate: shield: the apps'' own settings were fetched again ({0} apps); app traffic is served again",
                        shield.settings().learnedCount());
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
        if (next != before || knownNow) {
            keep();
        }
    }

    /** A failure is logged; the next change tries again. */
    private void keep() {
        try {
            LearnedSettingsFile.write(file(), next, shield.settings().learned().values(), shield.settings().isKnown());
        } catch (IOException e) {
            log.log(Level.WARNING, "gate: cannot write shield settings to " + file(), e);
        }
    }

    /** True when there is more. */
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
        return shield.directory().resolve("shield-settings.json");
    }
}
