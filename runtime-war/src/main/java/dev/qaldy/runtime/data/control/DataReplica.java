package dev.qaldy.runtime.data.control;

import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.json.Json;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonReader;
import java.io.IOException;
import java.io.StringReader;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * The runtime host's replica of the apps' data (issue 18), kept by {@link DataFeed} in
 * {@code qaldy.runtime.data-replica-dir} (default {@code ${qaldy.var}/runtime-data}), answering reads
 * while the control plane cannot be asked. It answers only for an app it holds whole, only while the
 * feed answered within {@code qaldy.runtime.data-replica.max-stale} (default {@code PT30M}, the seed's
 * bound for what the edge remembers), and never older than the reader's bookmark; otherwise it has no
 * answer and the read is 503 {@code unavailable} as without a replica.
 */
@ApplicationScoped
public class DataReplica {

    /** A read answered from the replica: status, the data API's JSON, the position it reflects, when the feed last answered. */
    public record Answer(int status, String json, long bookmark, Instant asOf) {
    }

    @Inject
    @ConfigProperty(name = "qaldy.var", defaultValue = "var")
    String var;

    @Inject
    @ConfigProperty(name = "qaldy.runtime.data-replica-dir")
    Optional<String> dir;

    @Inject
    @ConfigProperty(name = "qaldy.runtime.data-replica.max-stale", defaultValue = "PT30M")
    Duration maxStale;

    @Inject
    @ConfigProperty(name = "qaldy.runtime.data-replica.max-records-per-app", defaultValue = "10000")
    long maxRecordsPerApp;

    @Inject
    @ConfigProperty(name = "qaldy.runtime.data-replica.max-apps", defaultValue = "1000")
    int maxApps;

    @Inject
    Clock clock;

    @Inject
    Logger log;

    private ReplicaStore store;
    private boolean broken;
    /** When each app was last marked read (epoch ms): at most once a {@value #MARK_EVERY_MS} ms, off the store's lock. */
    private final Map<String, Long> marked = new ConcurrentHashMap<>();
    static final long MARK_EVERY_MS = 60_000;

    /** Work on the store, run under the replica's lock. */
    @FunctionalInterface
    public interface StoreWork<T> {
        T run(ReplicaStore store) throws SQLException;
    }

    /**
     * Runs {@code work} on the store under the replica's lock.
     *
     * @throws SQLException as {@code work}, or when the store cannot be opened
     */
    public synchronized <T> T withStore(StoreWork<T> work) throws SQLException {
        return work.run(store().orElseThrow(() -> new SQLException("the data replica cannot be opened")));
    }

    /** The store, opened on first use; empty when it cannot be opened (logged once; reads then have no replica). */
    private Optional<ReplicaStore> store() {
        if (store == null && !broken) {
            Path file = Path.of(dir.filter(d -> !d.isBlank()).orElse(var + "/runtime-data"), "replica.db");
            try {
                store = new ReplicaStore(file, maxRecordsPerApp, maxApps);
            } catch (IOException e) {
                broken = true;
                log.log(Level.WARNING, "runtime: data replica: cannot open it ({0}); reads during an outage are 503", e.getMessage());
            }
        }
        return Optional.ofNullable(store);
    }

    @PreDestroy
    synchronized void close() {
        if (store != null) {
            store.close();
        }
    }

    /**
     * A read of {@code app}'s data from the replica, in the data API's shapes; empty when the replica
     * cannot answer it (app not held whole, feed out of touch past the bound, older than {@code floor}).
     *
     * @param id    a record id, or null for a page
     * @param query the page's {@code limit=…&after=…&order=…} (as {@code qaldy.data.list} builds it), or null
     * @param floor the reader's bookmark, or -1 for none
     */
    public synchronized Optional<Answer> read(String app, String collection, String id, String query, long floor) {
        Optional<ReplicaStore> held = store();
        if (held.isEmpty()) {
            return Optional.empty();
        }
        try {
            ReplicaStore replica = held.get();
            long[] feed = replica.feed();
            Instant contact = Instant.ofEpochMilli(feed[1]);
            Optional<ReplicaStore.AppState> state = replica.app(app);
            if (feed[1] == 0 || clock.instant().isAfter(contact.plus(maxStale))
                    || (state.isPresent() && state.get().state() != ReplicaStore.KEPT)) {
                return Optional.empty();
            }
            // An app the whole feed never named has no data yet (or was never written): an empty world as of the position.
            long position = Math.max(feed[0], state.map(ReplicaStore.AppState::position).orElse(0L));
            if (position < floor) {
                return Optional.empty();
            }
            replica.used(app, clock.millis());
            if (id != null) {
                Optional<ReplicaStore.Row> row = replica.get(app, collection, Long.parseLong(id));
                return Optional.of(row.isPresent() ? new Answer(200, record(row.get()).toString(), position, contact)
                        : new Answer(404, notFound(id, collection), position, contact));
            }
            Page page = Page.of(query);
            List<ReplicaStore.Row> rows = replica.list(app, collection, page.limit(), page.after(), page.newestFirst());
            JsonArrayBuilder records = Json.createArrayBuilder();
            rows.forEach(r -> records.add(record(r)));
            JsonObjectBuilder json = Json.createObjectBuilder().add("records", records);
            if (rows.size() == page.limit()) {
                json.add("nextAfter", rows.get(rows.size() - 1).id());
            } else {
                json.addNull("nextAfter");
            }
            return Optional.of(new Answer(200, json.build().toString(), position, contact));
        } catch (SQLException | RuntimeException e) {
            log.log(Level.WARNING, "runtime: data replica: cannot read " + app + "/" + collection, e);
            return Optional.empty();
        }
    }

    /** The data API's record: {@code {id, collection, data, createdBy, createdAt, updatedAt}} (times ISO-8601). */
    private static JsonObject record(ReplicaStore.Row row) {
        JsonObject data;
        try (JsonReader reader = Json.createReader(new StringReader(row.body()))) {
            data = reader.readObject();
        }
        return Json.createObjectBuilder().add("id", row.id()).add("collection", row.collection()).add("data", data)
                .add("createdBy", row.createdBy()).add("createdAt", Instant.ofEpochMilli(row.createdAt()).toString())
                .add("updatedAt", Instant.ofEpochMilli(row.updatedAt()).toString()).build();
    }

    private static String notFound(String id, String collection) {
        return Json.createObjectBuilder().add("type", "about:blank").add("title", "Not Found").add("status", 404)
                .add("detail", "there is no record " + id + " in " + collection).build().toString();
    }

    /** A page's options as {@code qaldy.data.list} sends them: limit 1..100 (20), after an id, order oldest|newest. */
    record Page(int limit, Long after, boolean newestFirst) {

        static Page of(String query) {
            int limit = 20;
            Long after = null;
            boolean newest = false;
            for (String pair : query == null ? new String[0] : query.split("&")) {
                int eq = pair.indexOf('=');
                String name = eq < 0 ? pair : pair.substring(0, eq);
                String value = eq < 0 ? "" : pair.substring(eq + 1);
                switch (name) {
                    case "limit" -> limit = Math.max(1, Math.min(100, Integer.parseInt(value)));
                    case "after" -> after = Long.parseLong(value);
                    case "order" -> newest = value.equals("newest");
                    default -> {
                    }
                }
            }
            return new Page(limit, after, newest);
        }
    }

    /**
     * {@code app}'s data was read from the control plane: it is used (least-recent-use), and when the
     * replica had dropped it, it is filled again from its own feed ({@link DataFeed}'s next round).
     */
    public void wanted(String app) {
        long now = clock.millis();
        Long last = marked.get(app);
        if (last != null && now - last < MARK_EVERY_MS && now >= last) {
            return; // least-recent-use needs no finer time than this; a read must not wait for the feed's lock
        }
        marked.put(app, now);
        if (marked.size() > 10 * maxApps) {
            marked.clear();
        }
        try {
            withStore(store -> {
                var state = store.app(app);
                if (state.isPresent() && state.get().state() == ReplicaStore.DROPPED) {
                    store.startFill(app, clock.millis());
                } else if (state.isPresent()) {
                    store.used(app, clock.millis());
                }
                return null;
            });
        } catch (SQLException e) {
            log.log(Level.WARNING, "runtime: data replica: cannot mark " + app + " as read", e);
        }
    }

    /** The feed's position held and when the replica last read the feed to its end (null: never). */
    public record Standing(long position, Instant caughtUpAt) {
    }

    /** Position 0 and never when the replica cannot be read. */
    public Standing standing() {
        try {
            return withStore(store -> {
                long[] feed = store.feed();
                return new Standing(feed[0], feed[1] == 0 ? null : Instant.ofEpochMilli(feed[1]));
            });
        } catch (SQLException e) {
            return new Standing(0, null);
        }
    }
}
