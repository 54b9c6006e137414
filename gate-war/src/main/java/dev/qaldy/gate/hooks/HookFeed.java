package dev.qaldy.gate.hooks;

import dev.qaldy.contract.hooks.HookMaterial;
import dev.qaldy.gate.platform.FeedFollower;
import dev.qaldy.gate.platform.InternalFeed;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import jakarta.json.JsonObject;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.logging.Level;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * Keeps this gate's {@link HookBook} (issue 17) from {@code GET /api/v1/internal/hooks?since=S} every
 * {@code qaldy.gate.hooks.refresh}; pushes ({@link HookMaterialPush}) bring a change sooner. Kept in
 * {@code qaldy.gate.hooks-dir}, else {@code ${qaldy.var}/gate-hooks}.
 */
@ApplicationScoped
public class HookFeed extends FeedFollower {

    static final String PATH = "/api/v1/internal/hooks";

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

    void start(@Observes @Initialized(ApplicationScoped.class) Object started) {
        book();
        startFollowing();
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

    @Override
    protected Feed feed() {
        return new Feed(PATH, "hooks", "hooks", refresh, fetchTimeout);
    }

    @Override
    protected long since() {
        return book().next();
    }

    @Override
    protected void take(InternalFeed.Changes page) throws IOException {
        List<HookMaterial> changes = new ArrayList<>();
        for (JsonObject entry : page.entries()) {
            HookMaterial.read(entry, problem -> log.log(Level.WARNING, "gate: hooks: {0}", problem)).ifPresent(changes::add);
        }
        int taken = book().learn(changes, page.next());
        if (taken > 0) {
            log.log(Level.FINE, "gate: hooks: {0} changes up to {1}", new Object[] {taken, page.next()});
        }
    }
}
