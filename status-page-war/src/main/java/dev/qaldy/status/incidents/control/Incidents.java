package dev.qaldy.status.incidents.control;

import dev.qaldy.status.incidents.entity.Incident;
import dev.qaldy.status.incidents.entity.IncidentStatus;
import dev.qaldy.status.incidents.entity.IncidentUpdate;
import dev.qaldy.status.incidents.entity.Origin;
import dev.qaldy.status.platform.StatusDatabase;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Optional;
import java.util.Set;

/**
 * The incidents in the status page's database, opened automatically or by an operator. A resolved
 * incident cannot change any more; every change is one transaction.
 */
@ApplicationScoped
public class Incidents {

    /** Thrown when an incident is already resolved and cannot change. */
    public static class AlreadyResolved extends RuntimeException {
        private static final long serialVersionUID = 1L;

        public AlreadyResolved(long id) {
            super("incident " + id + " is already resolved");
        }
    }

    private static final String COLUMNS =
            "id, name, status, origin, component_id, episode_since_ms, created_ms, updated_ms, resolved_ms";

    @Inject
    StatusDatabase database;

    public Incidents() {
    }

    /** Incidents on {@code database} (tests). */
    public Incidents(StatusDatabase database) {
        this.database = database;
    }

    /** Every unresolved incident, newest first. */
    public List<Incident> open() {
        return query("WHERE resolved_ms IS NULL ORDER BY created_ms DESC, id DESC", statement -> { });
    }

    /** Incidents resolved at or after {@code fromMs}, most recently resolved first, at most {@code limit}. */
    public List<Incident> resolvedSince(long fromMs, int limit) {
        return query("WHERE resolved_ms >= ? ORDER BY resolved_ms DESC, id DESC LIMIT ?", statement -> {
            statement.setLong(1, fromMs);
            statement.setInt(2, limit);
        });
    }

    /** The newest incidents, open or not, newest first, at most {@code limit}. */
    public List<Incident> latest(int limit) {
        return query("ORDER BY created_ms DESC, id DESC LIMIT ?", statement -> statement.setInt(1, limit));
    }

    /** The incident {@code id}, if it exists. */
    public Optional<Incident> find(long id) {
        return query("WHERE id = ?", statement -> statement.setLong(1, id)).stream().findFirst();
    }

    /** The latest automatic incident of each component that ever had one, by component id. */
    public Map<String, Incident> latestAutomatic() {
        List<Incident> all = query("WHERE id IN (SELECT MAX(id) FROM incident WHERE origin = 'AUTOMATIC' GROUP BY component_id)",
                statement -> { });
        Map<String, Incident> byComponent = new HashMap<>();
        all.forEach(incident -> byComponent.put(incident.componentId(), incident));
        return byComponent;
    }

    /**
     * Opens an automatic incident for {@code componentId}, started at {@code episodeSinceMs} (its
     * first failing probe), with a first message posted at {@code nowMs}.
     */
    public Incident openAutomatic(String componentId, long episodeSinceMs, String name, String body, long nowMs) {
        return insert(Incident.checkName(name), IncidentStatus.INVESTIGATING, Origin.AUTOMATIC, componentId,
                episodeSinceMs, episodeSinceMs, Incident.checkBody(body), nowMs);
    }

    /** Resolves an automatic incident as of {@code resolvedMs} (the first probe that found it up), posted at {@code nowMs}. */
    public Incident resolveAutomatic(long id, String body, long resolvedMs, long nowMs) {
        return change(id, IncidentStatus.RESOLVED, Incident.checkBody(body), resolvedMs, nowMs);
    }

    /** Opens an incident by an operator, started now. */
    public Incident create(String name, IncidentStatus status, String body, long nowMs) {
        if (status == IncidentStatus.RESOLVED) {
            throw new IllegalArgumentException("A new incident cannot be resolved already.");
        }
        return insert(Incident.checkName(name), status, Origin.OPERATOR, null, null, nowMs, Incident.checkBody(body), nowMs);
    }

    /**
     * Posts a message on an open incident with its new {@code status}; {@code RESOLVED} resolves it now.
     *
     * @throws AlreadyResolved when it is resolved
     */
    public Incident update(long id, IncidentStatus status, String body, long nowMs) {
        return change(id, status, Incident.checkBody(body), status == IncidentStatus.RESOLVED ? nowMs : null, nowMs);
    }

    /** Deletes incidents resolved before {@code beforeMs} with their messages; returns how many. */
    public int prune(long beforeMs) {
        return database.inTransaction(connection -> {
            try (PreparedStatement delete = connection.prepareStatement("DELETE FROM incident WHERE resolved_ms < ?")) {
                delete.setLong(1, beforeMs);
                return delete.executeUpdate();
            }
        });
    }

    private Incident insert(String name, IncidentStatus status, Origin origin, String componentId, Long episodeSinceMs,
            long createdMs, String body, long nowMs) {
        long id = database.inTransaction(connection -> {
            long newId;
            try (PreparedStatement insert = connection.prepareStatement(
                    "INSERT INTO incident (name, status, origin, component_id, episode_since_ms, created_ms, updated_ms, resolved_ms) "
                            + "VALUES (?, ?, ?, ?, ?, ?, ?, NULL)", Statement.RETURN_GENERATED_KEYS)) {
                insert.setString(1, name);
                insert.setString(2, status.name());
                insert.setString(3, origin.name());
                insert.setString(4, componentId);
                if (episodeSinceMs == null) {
                    insert.setNull(5, Types.BIGINT);
                } else {
                    insert.setLong(5, episodeSinceMs);
                }
                insert.setLong(6, createdMs);
                insert.setLong(7, nowMs);
                insert.executeUpdate();
                try (ResultSet keys = insert.getGeneratedKeys()) {
                    keys.next();
                    newId = keys.getLong(1);
                }
            }
            addUpdate(connection, newId, status, body, nowMs);
            return newId;
        });
        return find(id).orElseThrow();
    }

    private Incident change(long id, IncidentStatus status, String body, Long resolvedMs, long nowMs) {
        boolean changed = database.inTransaction(connection -> {
            try (PreparedStatement update = connection.prepareStatement(
                    "UPDATE incident SET status = ?, updated_ms = ?, resolved_ms = ? WHERE id = ? AND resolved_ms IS NULL")) {
                update.setString(1, status.name());
                update.setLong(2, nowMs);
                if (resolvedMs == null) {
                    update.setNull(3, Types.BIGINT);
                } else {
                    update.setLong(3, resolvedMs);
                }
                update.setLong(4, id);
                if (update.executeUpdate() == 0) {
                    return false;
                }
            }
            addUpdate(connection, id, status, body, nowMs);
            return true;
        });
        if (!changed) {
            find(id).orElseThrow(() -> new NoSuchElementException("no incident " + id));
            throw new AlreadyResolved(id);
        }
        return find(id).orElseThrow();
    }

    private static void addUpdate(Connection connection, long incidentId, IncidentStatus status, String body, long nowMs)
            throws SQLException {
        try (PreparedStatement insert = connection.prepareStatement(
                "INSERT INTO incident_update (incident_id, status, body, created_ms) VALUES (?, ?, ?, ?)")) {
            insert.setLong(1, incidentId);
            insert.setString(2, status.name());
            insert.setString(3, body);
            insert.setLong(4, nowMs);
            insert.executeUpdate();
        }
    }

    @FunctionalInterface
    private interface Binder {
        void bind(PreparedStatement statement) throws SQLException;
    }

    private List<Incident> query(String where, Binder binder) {
        return database.inTransaction(connection -> {
            Map<Long, Object[]> rows = new LinkedHashMap<>();
            try (PreparedStatement select = connection.prepareStatement("SELECT " + COLUMNS + " FROM incident " + where)) {
                binder.bind(select);
                try (ResultSet result = select.executeQuery()) {
                    while (result.next()) {
                        rows.put(result.getLong(1), new Object[] {result.getString(2), result.getString(3),
                                result.getString(4), result.getString(5), nullableLong(result, 6), result.getLong(7),
                                result.getLong(8), nullableLong(result, 9)});
                    }
                }
            }
            Map<Long, List<IncidentUpdate>> updates = updates(connection, rows.keySet());
            List<Incident> incidents = new ArrayList<>(rows.size());
            rows.forEach((id, r) -> incidents.add(new Incident(id, (String) r[0], IncidentStatus.valueOf((String) r[1]),
                    Origin.valueOf((String) r[2]), (String) r[3], (Long) r[4], (Long) r[5], (Long) r[6], (Long) r[7],
                    updates.getOrDefault(id, List.of()))));
            return incidents;
        });
    }

    private static Map<Long, List<IncidentUpdate>> updates(Connection connection, Set<Long> ids) throws SQLException {
        Map<Long, List<IncidentUpdate>> updates = new HashMap<>();
        if (ids.isEmpty()) {
            return updates;
        }
        try (PreparedStatement select = connection.prepareStatement(
                "SELECT incident_id, status, body, created_ms FROM incident_update WHERE incident_id = ANY(?) "
                        + "ORDER BY created_ms DESC, id DESC")) {
            select.setArray(1, connection.createArrayOf("BIGINT", ids.toArray()));
            try (ResultSet result = select.executeQuery()) {
                while (result.next()) {
                    updates.computeIfAbsent(result.getLong(1), k -> new ArrayList<>()).add(new IncidentUpdate(
                            IncidentStatus.valueOf(result.getString(2)), result.getString(3), result.getLong(4)));
                }
            }
        }
        return updates;
    }

    private static Long nullableLong(ResultSet result, int index) throws SQLException {
        long value = result.getLong(index);
        return result.wasNull() ? null : value;
    }
}
