package dev.qaldy.gate.shield;

import dev.qaldy.contract.files.KeptFile;
import dev.qaldy.gate.platform.FeedFollower;
import dev.qaldy.gate.platform.InternalFeed;
import dev.qaldy.gate.platform.LearnedFile;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Collection;
import java.util.logging.Level;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * Keeps the owners' shield settings in the background from {@code GET /api/v1/internal/shield-settings?since=S}
 * every {@code qaldy.gate.shield.refresh} into {@link ShieldSettings}. The last settings stay in force
 * while the API is down (seed), also across a restart, from {@code shield-settings.json} in the
 * shield's folder ({@link LearnedFile}, with {@code "complete":B}: false while the feed is read again
 * after a damaged copy). An unreadable copy is set aside and the feed read again from its start;
 * until then app traffic gets 503 ({@link ShieldSettings#unknown()}), never config's settings in place
 * of an owner's.
 */
@ApplicationScoped
public class ShieldSettingsFeed extends FeedFollower {

    static final String PATH = "/api/v1/internal/shield-settings";

    @Inject
    Shield shield;

    @Inject
    @ConfigProperty(name = "qaldy.gate.shield.refresh", defaultValue = "PT15S")
    Duration refresh;

    @Inject
    @ConfigProperty(name = "qaldy.gate.shield.fetch-timeout", defaultValue = "PT5S")
    Duration fetchTimeout;

    private long next;

    void start(@Observes @Initialized(ApplicationScoped.class) Object started) {
        synchronized (this) {
            LearnedFile.Read<OwnerSettings> read = readCopy(file());
            if (read instanceof LearnedFile.Held<OwnerSettings> held) {
                boolean complete = complete(held);
                if (!complete) {
                    shield.settings().unknown();
                }
                held.entries().forEach(this::learn);
                next = held.next();
                log.log(Level.INFO, "gate: shield: {0} apps'' own settings read from {1} (up to change {2}{3}); changes fetched every {4}",
                        new Object[] {held.entries().size(), file(), next, complete ? ""
                                : ", not all yet: app traffic gets 503 until the rest is fetched", refresh});
            } else if (read instanceof LearnedFile.Corrupt<OwnerSettings> corrupt) {
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
        startFollowing();
    }

    @Override
    protected Feed feed() {
        return new Feed(PATH, "settings", "shield settings", refresh, fetchTimeout);
    }

    @Override
    protected synchronized long since() {
        return next;
    }

    @Override
    protected synchronized void take(InternalFeed.Changes page) {
        for (JsonObject entry : page.entries()) {
            OwnerSettings.read(entry, problem -> log.log(Level.WARNING, "gate: shield settings: {0}", problem)).ifPresent(this::learn);
        }
        if (page.next() != next || !page.entries().isEmpty()) {
            next = page.next();
            keep();
        }
    }

    @Override
    protected synchronized void caughtUp() {
        if (!shield.settings().isKnown()) {
            shield.settings().known();
            keep();
            log.log(Level.INFO, "gate: shield: the apps'' own settings were fetched again ({0} apps); app traffic is served again",
                    shield.settings().learnedCount());
        }
    }

    /** A failure is logged; the next change tries again. */
    private void keep() {
        try {
            writeCopy(file(), next, shield.settings().learned().values(), shield.settings().isKnown());
        } catch (IOException e) {
            log.log(Level.WARNING, "gate: cannot write shield settings to " + file(), e);
        }
    }

    private void learn(OwnerSettings owner) {
        if (!shield.settings().learn(owner)) {
            log.log(Level.WARNING, "gate: shield: too many apps with settings of their own; {0}''s are not kept (config''s apply)",
                    owner.app());
        } else {
            log.log(Level.FINE, "gate: shield: {0} settings of change {1}", new Object[] {owner.app(), owner.sequence()});
        }
    }

    /** {@link LearnedFile#read}, and Corrupt when {@code complete} is there but not true or false. */
    static LearnedFile.Read<OwnerSettings> readCopy(Path file) {
        LearnedFile.Read<OwnerSettings> read = LearnedFile.read(file, "settings", OwnerSettings::read);
        if (read instanceof LearnedFile.Held<OwnerSettings> held) {
            JsonValue complete = held.whole().get("complete");
            if (complete != null && complete != JsonValue.TRUE && complete != JsonValue.FALSE) {
                return new LearnedFile.Corrupt<>("complete is not true or false");
            }
        }
        return read;
    }

    /** False only when the copy says it was written while the feed was read again in part. */
    static boolean complete(LearnedFile.Held<OwnerSettings> held) {
        return held.whole().get("complete") != JsonValue.FALSE;
    }

    static void writeCopy(Path file, long next, Collection<OwnerSettings> settings, boolean complete) throws IOException {
        LearnedFile.write(file, next, "settings", settings.stream().map(OwnerSettings::toJson).toList(),
                Json.createObjectBuilder().add("complete", complete).build());
    }

    Path file() {
        return shield.directory().resolve("shield-settings.json");
    }
}
