package dev.qaldy.runtime.data.control;

import dev.qaldy.contract.data.DataChange;
import dev.qaldy.contract.keys.ServiceDirection;
import dev.qaldy.runtime.bundles.control.ControlPlaneClient;
import dev.qaldy.runtime.platform.CellCredentials;
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
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * Keeps the {@link DataReplica} in the background (issue 18): every
 * {@code qaldy.runtime.data-replica.refresh} (default {@code PT1S}) it reads the control plane's data
 * feed ({@value DataChange#PATH}, with the runtime host's own credential) from the replica's position,
 * at most {@value #MAX_PAGES} pages of {@value #PAGE}, and fills apps the replica dropped and was asked
 * for again from their own feed. Requests never wait for it; while the control plane cannot be asked
 * the replica keeps what it has, and says since when.
 */
@ApplicationScoped
public class DataFeed {

    static final int PAGE = 500;
    static final int MAX_PAGES = 20;
    /** A page of 500 records of 16 KiB, with room. */
    static final long MAX_ANSWER_BYTES = 16L * 1024 * 1024;

    @Inject
    DataReplica replica;

    @Inject
    ControlPlaneClient control;

    @Inject
    CellCredentials credentials;

    @Inject
    Clock clock;

    @Inject
    Logger log;

    @Resource
    ManagedScheduledExecutorService scheduler;

    @Inject
    @ConfigProperty(name = "qaldy.runtime.data-replica.refresh", defaultValue = "PT1S")
    Duration refresh;

    @Inject
    @ConfigProperty(name = "qaldy.runtime.data-replica.fetch-timeout", defaultValue = "PT5S")
    Duration fetchTimeout;

    private boolean reachable = true;
    private ScheduledFuture<?> ticking;

    void start(@Observes @Initialized(ApplicationScoped.class) Object started) {
        ticking = scheduler.scheduleWithFixedDelay(this::round, 0, Math.max(100, refresh.toMillis()), TimeUnit.MILLISECONDS);
        log.log(Level.INFO, "runtime: data replica: the data feed read every {0}", refresh);
    }

    @PreDestroy
    void stop() {
        if (ticking != null) {
            ticking.cancel(false);
        }
    }

    /** One round: the whole feed since the replica's position, then the fills asked for. */
    synchronized void round() {
        try {
            if (!credentials.ready()) {
                return;
            }
            boolean more = true;
            for (int page = 0; page < MAX_PAGES && more; page++) {
                Page read = fetch(replica.withStore(store -> store.feed()[0]), null);
                boolean end = !read.more();
                long now = clock.millis();
                replica.withStore(store -> {
                    store.takeFeed(read.changes(), end ? Math.max(read.next(), read.head()) : read.next(), end ? now : 0, now);
                    return null;
                });
                more = read.more();
            }
            List<String> filling = replica.withStore(ReplicaStore::filling);
            for (String app : filling) {
                fill(app);
            }
            if (!reachable) {
                reachable = true;
                log.log(Level.INFO, "runtime: data replica: the control plane answers again");
            }
        } catch (RuntimeException | SQLException e) {
            if (reachable) {
                reachable = false;
                log.log(Level.INFO, "runtime: data replica: cannot follow the data feed ({0}); what is held stays, "
                        + "answered while it is within its bound", e.getMessage());
            }
        }
    }

    /** Reads {@code app}'s own feed from its start; the app is kept once it is read to its end. */
    private void fill(String app) throws SQLException {
        long since = 0;
        for (int page = 0; page < MAX_PAGES; page++) {
            Page read = fetch(since, app);
            replica.withStore(store -> {
                store.takeFill(app, read.changes(), !read.more(), Math.max(read.next(), read.head()));
                return null;
            });
            if (!read.more()) {
                log.log(Level.INFO, "runtime: data replica: {0} filled again", app);
                return;
            }
            since = read.next();
        }
    }

    private record Page(List<DataChange> changes, long next, boolean more, long head) {
    }

    private Page fetch(long since, String app) {
        String path = DataChange.PATH + "?since=" + since + "&limit=" + PAGE
                + (app == null ? "" : "&app=" + URLEncoder.encode(app, StandardCharsets.UTF_8));
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(control.base() + path))
                .header(ServiceDirection.HEADER, credentials.toControl()).header("Accept", "application/json").GET();
        ControlPlaneClient.Answer answer = control.exchange(request, "data changes", MAX_ANSWER_BYTES, fetchTimeout);
        if (answer.status() != 200) {
            throw new IllegalStateException("the data feed answered HTTP " + answer.status());
        }
        JsonObject json;
        try (JsonReader reader = Json.createReader(new ByteArrayInputStream(answer.body()))) {
            json = reader.readObject();
        }
        if (!(json.get("changes") instanceof JsonArray array) || !(json.get("next") instanceof JsonNumber next)
                || !(json.get("head") instanceof JsonNumber head) || next.longValue() < since) {
            throw new IllegalStateException("the data feed answered without changes, next or head, or with an older position");
        }
        List<DataChange> changes = new ArrayList<>();
        for (JsonValue entry : array) {
            if (entry instanceof JsonObject object) {
                DataChange.read(object, problem -> log.log(Level.WARNING, "runtime: data replica: {0}", problem)).ifPresent(changes::add);
            }
        }
        return new Page(changes, next.longValue(), json.getBoolean("more", false) && !array.isEmpty(), head.longValue());
    }
}
