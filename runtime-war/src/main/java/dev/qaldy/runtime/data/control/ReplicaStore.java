package dev.qaldy.runtime.data.control;

import dev.qaldy.contract.data.DataChange;
import dev.qaldy.contract.files.SqliteFile;
import java.io.IOException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The runtime host's replica of the apps' data on disk (issue 18): one SQLite file, owner-only
 * ({@link SqliteFile}), holding each kept app's records as the data feed last gave them, the feed's
 * position and when the feed last answered. A change is taken only when newer than what is held for
 * its record (a record's row or its tombstone), so a change that arrives late never brings back an
 * older state or a deleted record. Each app keeps at most {@code maxRecordsPerApp} records and at most
 * {@code maxApps} apps are kept, the least recently read dropped first; a dropped app is not answered
 * from the replica until it is filled again. Not thread-safe: {@link DataReplica} calls it under its lock.
 */
public final class ReplicaStore implements AutoCloseable {

    /** An app's state: not kept (0), being filled (1: the feed's changes are taken, reads are not answered), kept (2). */
    static final int DROPPED = 0;
    static final int FILLING = 1;
    static final int KEPT = 2;

    /** A record as the replica holds it; times in epoch ms. */
    public record Row(long id, String collection, long seq, String body, String createdBy, long createdAt, long updatedAt) {
    }

    /** An app's standing: {@code state}, {@code position} it is whole up to (its fill's head), {@code records} held. */
    public record AppState(int state, long position, long records, long lastUsed) {
    }

    private final Connection db;
    private final long maxRecordsPerApp;
    private final int maxApps;

    /** @throws IOException when the file cannot be opened or its tables made */
    public ReplicaStore(Path file, long maxRecordsPerApp, int maxApps) throws IOException {
        this.maxRecordsPerApp = maxRecordsPerApp;
        this.maxApps = maxApps;
        db = SqliteFile.open(file, false); // what is lost in a crash is fetched again from the feed
        try (Statement s = db.createStatement()) {
            s.execute("CREATE TABLE IF NOT EXISTS RECORDS (APP TEXT NOT NULL, ID INTEGER NOT NULL, COLLECTION TEXT NOT NULL,"
                    + " SEQ INTEGER NOT NULL, BODY TEXT NOT NULL, CREATED_BY TEXT NOT NULL, CREATED_AT INTEGER NOT NULL,"
                    + " UPDATED_AT INTEGER NOT NULL, PRIMARY KEY (APP, ID))");
            s.execute("CREATE INDEX IF NOT EXISTS RECORDS_PAGE ON RECORDS (APP, COLLECTION, ID)");
            // ID 0: all of the app's data deleted with it
            s.execute("CREATE TABLE IF NOT EXISTS TOMBSTONES (APP TEXT NOT NULL, ID INTEGER NOT NULL, SEQ INTEGER NOT NULL, PRIMARY KEY (APP, ID))");
            s.execute("CREATE TABLE IF NOT EXISTS APPS (APP TEXT PRIMARY KEY, STATE INTEGER NOT NULL, POSITION INTEGER NOT NULL,"
                    + " RECORDS INTEGER NOT NULL, LAST_USED INTEGER NOT NULL)");
            s.execute("CREATE TABLE IF NOT EXISTS FEED (ONE INTEGER PRIMARY KEY CHECK (ONE = 1), POSITION INTEGER NOT NULL,"
                    + " CONTACT INTEGER NOT NULL)");
            s.execute("INSERT OR IGNORE INTO FEED (ONE, POSITION, CONTACT) VALUES (1, 0, 0)");
            db.setAutoCommit(false);
            db.commit();
        } catch (SQLException e) {
            close();
            throw new IOException("the data replica " + file + " cannot be opened: " + e.getMessage(), e);
        }
    }

    /**
     * The feed's position (every change up to it taken for the kept apps) and when a round last read the
     * feed to its end (epoch ms; 0: never, and the replica answers nothing: it may not know every app yet).
     */
    public long[] feed() throws SQLException {
        try (Statement s = db.createStatement(); ResultSet r = s.executeQuery("SELECT POSITION, CONTACT FROM FEED")) {
            r.next();
            return new long[] {r.getLong(1), r.getLong(2)};
        }
    }

    /** Empty for an app the replica never held. */
    public Optional<AppState> app(String app) throws SQLException {
        try (PreparedStatement s = db.prepareStatement("SELECT STATE, POSITION, RECORDS, LAST_USED FROM APPS WHERE APP = ?")) {
            s.setString(1, app);
            try (ResultSet r = s.executeQuery()) {
                return r.next() ? Optional.of(new AppState(r.getInt(1), r.getLong(2), r.getLong(3), r.getLong(4))) : Optional.empty();
            }
        }
    }

    /** Apps being filled. */
    public List<String> filling() throws SQLException {
        List<String> out = new ArrayList<>();
        try (Statement s = db.createStatement(); ResultSet r = s.executeQuery("SELECT APP FROM APPS WHERE STATE = " + FILLING)) {
            while (r.next()) {
                out.add(r.getString(1));
            }
        }
        return out;
    }

    /**
     * Takes one page of the whole feed: changes of apps not dropped, a new app made kept (another
     * dropped when more than {@code maxApps}), and the feed's new position, in one commit.
     *
     * @param caughtUpMs when this page reached the feed's end: now (epoch ms), the replica's contact; else 0
     */
    public void takeFeed(List<DataChange> changes, long position, long caughtUpMs, long nowMs) throws SQLException {
        try {
            for (DataChange change : changes) {
                Optional<AppState> state = app(change.app());
                if (state.isEmpty()) {
                    makeRoom(nowMs);
                    setApp(change.app(), KEPT, 0, 0, nowMs);
                } else if (state.get().state() == DROPPED) {
                    continue;
                }
                apply(change);
            }
            try (PreparedStatement s = db.prepareStatement("UPDATE FEED SET POSITION = MAX(POSITION, ?), CONTACT = MAX(CONTACT, ?)")) {
                s.setLong(1, position);
                s.setLong(2, caughtUpMs);
                s.executeUpdate();
            }
            dropTombstonesUpTo(position);
            db.commit();
        } catch (SQLException | RuntimeException e) {
            db.rollback();
            throw e;
        }
    }

    /** Marks {@code app} as being filled (its rows cleared): the whole feed's changes of it are taken meanwhile. */
    public void startFill(String app, long nowMs) throws SQLException {
        try {
            deleteRows(app);
            makeRoom(nowMs);
            setApp(app, FILLING, 0, 0, nowMs);
            db.commit();
        } catch (SQLException | RuntimeException e) {
            db.rollback();
            throw e;
        }
    }

    /**
     * Takes one page of an app's own feed; with {@code done}, the app is kept and whole up to {@code head}.
     * Nothing is taken for an app no longer being filled.
     */
    public void takeFill(String app, List<DataChange> changes, boolean done, long head) throws SQLException {
        try {
            Optional<AppState> state = app(app);
            if (state.isEmpty() || state.get().state() != FILLING) {
                db.rollback();
                return;
            }
            for (DataChange change : changes) {
                apply(change);
                if (app(app).orElseThrow().state() == DROPPED) {
                    db.commit(); // more than the replica keeps of one app
                    return;
                }
            }
            if (done) {
                AppState now = app(app).orElseThrow();
                if (now.state() == FILLING) {
                    setApp(app, KEPT, head, now.records(), now.lastUsed());
                }
            }
            db.commit();
        } catch (SQLException | RuntimeException e) {
            db.rollback();
            throw e;
        }
    }

    /** Marks a read of {@code app} (for least-recent-use). */
    public void used(String app, long nowMs) throws SQLException {
        try (PreparedStatement s = db.prepareStatement("UPDATE APPS SET LAST_USED = ? WHERE APP = ?")) {
            s.setLong(1, nowMs);
            s.setString(2, app);
            s.executeUpdate();
        }
        db.commit();
    }

    public Optional<Row> get(String app, String collection, long id) throws SQLException {
        try (PreparedStatement s = db.prepareStatement("SELECT ID, COLLECTION, SEQ, BODY, CREATED_BY, CREATED_AT, UPDATED_AT"
                + " FROM RECORDS WHERE APP = ? AND ID = ? AND COLLECTION = ?")) {
            s.setString(1, app);
            s.setLong(2, id);
            s.setString(3, collection);
            try (ResultSet r = s.executeQuery()) {
                return r.next() ? Optional.of(row(r)) : Optional.empty();
            }
        } finally {
            db.commit();
        }
    }

    /** A page as the data API gives it: ids after {@code after} (oldest first) or before it (newest first). */
    public List<Row> list(String app, String collection, int limit, Long after, boolean newestFirst) throws SQLException {
        String sql = "SELECT ID, COLLECTION, SEQ, BODY, CREATED_BY, CREATED_AT, UPDATED_AT FROM RECORDS WHERE APP = ? AND COLLECTION = ?"
                + (newestFirst ? " AND ID < ? ORDER BY ID DESC" : " AND ID > ? ORDER BY ID") + " LIMIT ?";
        List<Row> out = new ArrayList<>();
        try (PreparedStatement s = db.prepareStatement(sql)) {
            s.setString(1, app);
            s.setString(2, collection);
            s.setLong(3, after != null ? after : newestFirst ? Long.MAX_VALUE : 0L);
            s.setInt(4, limit);
            try (ResultSet r = s.executeQuery()) {
                while (r.next()) {
                    out.add(row(r));
                }
            }
        } finally {
            db.commit();
        }
        return out;
    }

    @Override
    public void close() {
        try {
            db.close();
        } catch (SQLException e) {
            // closing: nothing more to keep
        }
    }

    private void apply(DataChange change) throws SQLException {
        long appTomb = tombstone(change.app(), 0);
        if (change.seq() <= appTomb) {
            return;
        }
        if (change.kind() == DataChange.Kind.APP_DELETED) {
            deleteRows(change.app());
            setTombstone(change.app(), 0, change.seq());
            AppState state = app(change.app()).orElseThrow();
            setApp(change.app(), state.state(), state.position(), 0, state.lastUsed());
            return;
        }
        long held = Math.max(tombstone(change.app(), change.id()), seqOf(change.app(), change.id()));
        if (change.seq() <= held) {
            return;
        }
        boolean present = seqOf(change.app(), change.id()) > 0;
        if (change.kind() == DataChange.Kind.DELETED) {
            if (present) {
                try (PreparedStatement s = db.prepareStatement("DELETE FROM RECORDS WHERE APP = ? AND ID = ?")) {
                    s.setString(1, change.app());
                    s.setLong(2, change.id());
                    s.executeUpdate();
                }
                count(change.app(), -1);
            }
            setTombstone(change.app(), change.id(), change.seq());
            return;
        }
        if (!present && app(change.app()).orElseThrow().records() >= maxRecordsPerApp) {
            drop(change.app()); // more than the replica keeps of one app: not answered from the replica at all
            return;
        }
        try (PreparedStatement s = db.prepareStatement("INSERT OR REPLACE INTO RECORDS (APP, ID, COLLECTION, SEQ, BODY, CREATED_BY,"
                + " CREATED_AT, UPDATED_AT) VALUES (?, ?, ?, ?, ?, ?, ?, ?)")) {
            s.setString(1, change.app());
            s.setLong(2, change.id());
            s.setString(3, change.collection());
            s.setLong(4, change.seq());
            s.setString(5, change.body());
            s.setString(6, change.createdBy());
            s.setLong(7, change.createdAt());
            s.setLong(8, change.updatedAt());
            s.executeUpdate();
        }
        if (!present) {
            count(change.app(), +1);
        }
    }

    /** Drops the least recently used kept apps until there is room for one more. */
    private void makeRoom(long nowMs) throws SQLException {
        while (true) {
            String oldest;
            try (Statement s = db.createStatement(); ResultSet r = s.executeQuery("SELECT COUNT(*) FROM APPS WHERE STATE <> " + DROPPED)) {
                r.next();
                if (r.getLong(1) < maxApps) {
                    return;
                }
            }
            try (Statement s = db.createStatement(); ResultSet r = s.executeQuery("SELECT APP FROM APPS WHERE STATE <> " + DROPPED
                    + " ORDER BY LAST_USED, APP LIMIT 1")) {
                r.next();
                oldest = r.getString(1);
            }
            drop(oldest);
        }
    }

    private void drop(String app) throws SQLException {
        deleteRows(app);
        AppState state = app(app).orElseThrow();
        setApp(app, DROPPED, 0, 0, state.lastUsed());
    }

    private void deleteRows(String app) throws SQLException {
        try (PreparedStatement s = db.prepareStatement("DELETE FROM RECORDS WHERE APP = ?")) {
            s.setString(1, app);
            s.executeUpdate();
        }
    }

    private void setApp(String app, int state, long position, long records, long lastUsed) throws SQLException {
        try (PreparedStatement s = db.prepareStatement("INSERT OR REPLACE INTO APPS (APP, STATE, POSITION, RECORDS, LAST_USED)"
                + " VALUES (?, ?, ?, ?, ?)")) {
            s.setString(1, app);
            s.setInt(2, state);
            s.setLong(3, position);
            s.setLong(4, records);
            s.setLong(5, lastUsed);
            s.executeUpdate();
        }
    }

    private void count(String app, int delta) throws SQLException {
        try (PreparedStatement s = db.prepareStatement("UPDATE APPS SET RECORDS = RECORDS + ? WHERE APP = ?")) {
            s.setInt(1, delta);
            s.setString(2, app);
            s.executeUpdate();
        }
    }

    private long seqOf(String app, long id) throws SQLException {
        return seq("SELECT SEQ FROM RECORDS WHERE APP = ? AND ID = ?", app, id);
    }

    private long tombstone(String app, long id) throws SQLException {
        return seq("SELECT SEQ FROM TOMBSTONES WHERE APP = ? AND ID = ?", app, id);
    }

    /** The one SEQ {@code sql} selects for (app, id), or 0. */
    private long seq(String sql, String app, long id) throws SQLException {
        try (PreparedStatement s = db.prepareStatement(sql)) {
            s.setString(1, app);
            s.setLong(2, id);
            try (ResultSet r = s.executeQuery()) {
                return r.next() ? r.getLong(1) : 0;
            }
        }
    }

    private void setTombstone(String app, long id, long seq) throws SQLException {
        try (PreparedStatement s = db.prepareStatement("INSERT OR REPLACE INTO TOMBSTONES (APP, ID, SEQ) VALUES (?, ?, ?)")) {
            s.setString(1, app);
            s.setLong(2, id);
            s.setLong(3, seq);
            s.executeUpdate();
        }
    }

    /**
     * A tombstone only guards against a late older change, which only a fill brings (it reads apart from the
     * whole feed): with no fill running, those up to the whole feed's position are dropped.
     */
    private void dropTombstonesUpTo(long position) throws SQLException {
        if (!filling().isEmpty()) {
            return;
        }
        try (PreparedStatement s = db.prepareStatement("DELETE FROM TOMBSTONES WHERE SEQ <= ?")) {
            s.setLong(1, position);
            s.executeUpdate();
        }
    }

    private static Row row(ResultSet r) throws SQLException {
        return new Row(r.getLong(1), r.getString(2), r.getLong(3), r.getString(4), r.getString(5), r.getLong(6), r.getLong(7));
    }
}
