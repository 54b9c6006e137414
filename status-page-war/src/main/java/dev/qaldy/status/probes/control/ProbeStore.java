package dev.qaldy.status.probes.control;

import dev.qaldy.status.platform.StatusDatabase;
import dev.qaldy.status.probes.entity.ComponentState;
import dev.qaldy.status.probes.entity.DayCount;
import dev.qaldy.status.probes.entity.Health;
import dev.qaldy.status.probes.entity.ProbeRecord;
import dev.qaldy.status.probes.entity.ProbeResult;
import dev.qaldy.status.probes.entity.Reason;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The probe history in the status page's database: raw probes (kept for
 * {@code qaldy.status.raw-probes-kept}), per-component per-UTC-day up/down/unknown counts (kept for
 * {@code qaldy.status.history-days}) and the latest state of each component. The prober is its
 * only writer.
 */
@ApplicationScoped
public class ProbeStore {

    /** Milliseconds in a day; UTC days are epoch ms divided by this. */
    public static final long DAY_MS = 86_400_000L;

    @Inject
    StatusDatabase database;

    public ProbeStore() {
    }

    /** A store on {@code database} (tests). */
    public ProbeStore(StatusDatabase database) {
        this.database = database;
    }

    /** The UTC day of {@code epochMs}, as {@link java.time.LocalDate#toEpochDay()}. */
    public static long epochDay(long epochMs) {
        return Math.floorDiv(epochMs, DAY_MS);
    }

    /** Stores one round taken at {@code atMs}: its raw probes, the day counts and the new states, in one transaction. */
    public void record(List<ProbeResult> results, List<ComponentState> states, long atMs) {
        long day = epochDay(atMs);
        database.inTransaction(connection -> {
            try (PreparedStatement insert = connection.prepareStatement(
                    "INSERT INTO probe (component_id, health, latency_ms, at_ms, detail) VALUES (?, ?, ?, ?, ?)")) {
                for (ProbeResult result : results) {
                    insert.setString(1, result.componentId());
                    insert.setString(2, result.health().name());
                    setLong(insert, 3, result.latencyMs());
                    insert.setLong(4, atMs);
                    insert.setString(5, result.detail());
                    insert.addBatch();
                }
                insert.executeBatch();
            }
            Map<String, ComponentState> byId = new HashMap<>();
            states.forEach(state -> byId.put(state.componentId(), state));
            for (ProbeResult result : results) {
                count(connection, result.componentId(), day, counted(result, byId.get(result.componentId())));
            }
            try (PreparedStatement merge = connection.prepareStatement(
                    "MERGE INTO component_state (component_id, health, reason, since_ms, last_probe_ms, latency_ms, detail, starting) "
                            + "KEY (component_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?)")) {
                for (ComponentState state : states) {
                    merge.setString(1, state.componentId());
                    merge.setString(2, state.health().name());
                    merge.setString(3, state.reason().name());
                    merge.setLong(4, state.sinceMs());
                    merge.setLong(5, state.lastProbeMs());
                    setLong(merge, 6, state.latencyMs());
                    merge.setString(7, state.detail());
                    merge.setBoolean(8, state.starting());
                    merge.addBatch();
                }
                merge.executeBatch();
            }
            return null;
        });
    }

    /**
     * What a probe counts as in its day: a component still starting (never up since the status
     * page began watching it) is not down yet, so its failing probes count as unknown (no downtime).
     */
    static Health counted(ProbeResult result, ComponentState state) {
        return result.health() == Health.DOWN && state != null && state.starting() ? Health.UNKNOWN : result.health();
    }

    private static void count(Connection connection, String componentId, long day, Health health) throws SQLException {
        int up = health == Health.UP ? 1 : 0;
        int down = health == Health.DOWN ? 1 : 0;
        int unknown = health == Health.UNKNOWN ? 1 : 0;
        try (PreparedStatement update = connection.prepareStatement(
                "UPDATE uptime_day SET up_count = up_count + ?, down_count = down_count + ?, unknown_count = unknown_count + ? "
                        + "WHERE component_id = ? AND epoch_day = ?")) {
            update.setInt(1, up);
            update.setInt(2, down);
            update.setInt(3, unknown);
            update.setString(4, componentId);
            update.setLong(5, day);
            if (update.executeUpdate() > 0) {
                return;
            }
        }
        try (PreparedStatement insert = connection.prepareStatement(
                "INSERT INTO uptime_day (component_id, epoch_day, up_count, down_count, unknown_count) VALUES (?, ?, ?, ?, ?)")) {
            insert.setString(1, componentId);
            insert.setLong(2, day);
            insert.setInt(3, up);
            insert.setInt(4, down);
            insert.setInt(5, unknown);
            insert.executeUpdate();
        }
    }

    /** The stored latest state of every component, by id. */
    public Map<String, ComponentState> loadStates() {
        return database.inTransaction(connection -> {
            Map<String, ComponentState> states = new HashMap<>();
            try (PreparedStatement select = connection.prepareStatement(
                    "SELECT component_id, health, reason, since_ms, last_probe_ms, latency_ms, detail, starting FROM component_state");
                    ResultSet rows = select.executeQuery()) {
                while (rows.next()) {
                    ComponentState state = new ComponentState(rows.getString(1), Health.valueOf(rows.getString(2)),
                            Reason.valueOf(rows.getString(3)), rows.getLong(4), rows.getLong(5), getLong(rows, 6), rows.getString(7), rows.getBoolean(8));
                    states.put(state.componentId(), state);
                }
            }
            return states;
        });
    }

    /** Deletes the stored states of components no longer configured. */
    public void forgetStatesExcept(Set<String> componentIds) {
        database.inTransaction(connection -> {
            List<String> gone = new ArrayList<>();
            try (PreparedStatement select = connection.prepareStatement("SELECT component_id FROM component_state");
                    ResultSet rows = select.executeQuery()) {
                while (rows.next()) {
                    if (!componentIds.contains(rows.getString(1))) {
                        gone.add(rows.getString(1));
                    }
                }
            }
            try (PreparedStatement delete = connection.prepareStatement("DELETE FROM component_state WHERE component_id = ?")) {
                for (String id : gone) {
                    delete.setString(1, id);
                    delete.executeUpdate();
                }
            }
            return null;
        });
    }

    /** Day counts of every component from the UTC day {@code fromEpochDay} on, oldest first. */
    public List<DayCount> dayCounts(long fromEpochDay) {
        return database.inTransaction(connection -> {
            List<DayCount> counts = new ArrayList<>();
            try (PreparedStatement select = connection.prepareStatement(
                    "SELECT component_id, epoch_day, up_count, down_count, unknown_count FROM uptime_day "
                            + "WHERE epoch_day >= ? ORDER BY epoch_day, component_id")) {
                select.setLong(1, fromEpochDay);
                try (ResultSet rows = select.executeQuery()) {
                    while (rows.next()) {
                        counts.add(new DayCount(rows.getString(1), rows.getLong(2), rows.getInt(3), rows.getInt(4), rows.getInt(5)));
                    }
                }
            }
            return counts;
        });
    }

    /** The newest raw probes of {@code componentId} taken at or after {@code fromMs}, newest first, at most {@code limit}. */
    public List<ProbeRecord> probes(String componentId, long fromMs, int limit) {
        return database.inTransaction(connection -> {
            List<ProbeRecord> probes = new ArrayList<>();
            try (PreparedStatement select = connection.prepareStatement(
                    "SELECT component_id, health, latency_ms, at_ms, detail FROM probe "
                            + "WHERE component_id = ? AND at_ms >= ? ORDER BY at_ms DESC, id DESC LIMIT ?")) {
                select.setString(1, componentId);
                select.setLong(2, fromMs);
                select.setInt(3, limit);
                try (ResultSet rows = select.executeQuery()) {
                    while (rows.next()) {
                        probes.add(new ProbeRecord(rows.getString(1), Health.valueOf(rows.getString(2)),
                                getLong(rows, 3), rows.getLong(4), rows.getString(5)));
                    }
                }
            }
            return probes;
        });
    }

    /**
     * Deletes raw probes older than {@code rawBeforeMs} and day counts of days before
     * {@code keepFromEpochDay}; returns the number of rows deleted.
     */
    public int prune(long rawBeforeMs, long keepFromEpochDay) {
        return database.inTransaction(connection -> {
            int deleted;
            try (PreparedStatement delete = connection.prepareStatement("DELETE FROM probe WHERE at_ms < ?")) {
                delete.setLong(1, rawBeforeMs);
                deleted = delete.executeUpdate();
            }
            try (PreparedStatement delete = connection.prepareStatement("DELETE FROM uptime_day WHERE epoch_day < ?")) {
                delete.setLong(1, keepFromEpochDay);
                deleted += delete.executeUpdate();
            }
            return deleted;
        });
    }

    private static void setLong(PreparedStatement statement, int index, Long value) throws SQLException {
        if (value == null) {
            statement.setNull(index, Types.BIGINT);
        } else {
            statement.setLong(index, value);
        }
    }

    private static Long getLong(ResultSet rows, int index) throws SQLException {
        long value = rows.getLong(index);
        return rows.wasNull() ? null : value;
    }
}
