import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * Benchmark 6 (issue 9): the scheduler's catch-up of many schedules that missed ticks. Talks to the
 * cell's H2 TCP server directly (JDBC, the H2 jar on the class path); the measuring is done by the
 * real scheduler of a real control plane, this only seeds and watches.
 *
 * <pre>
 *   java -cp h2.jar CatchUpBench.java seed  JDBC_URL PASSWORD_FILE APP N   (control plane stopped)
 *   java -cp h2.jar CatchUpBench.java watch JDBC_URL PASSWORD_FILE N OUT_FILE [TIMEOUT_S]
 * </pre>
 * seed: N schedules of APP ("*&#47;5 * * * *" in UTC, job "bench"), each created 4 h ago and last fired
 * 3 h ago, so each missed about 36 ticks within the 6-hour catch-up window; ids from 1,000,000,000
 * (out of the way of the control plane's own sequence); earlier bench schedules and their runs are
 * deleted first.
 * watch: polls every 100 ms; when N catch-up runs (actor scheduler.catchup) of those schedules
 * exist, waits 2 s more and writes {@code doneEpochMs catchUps distinctSchedules} to OUT_FILE
 * (catchUps must equal distinctSchedules must equal N: exactly one per schedule).
 */
public final class CatchUpBench {

    static final long FIRST_ID = 1_000_000_000L;

    public static void main(String[] args) throws Exception {
        String url = args[1];
        String password = Files.readString(Path.of(args[2])).trim();
        try (Connection db = DriverManager.getConnection(url, "qaldy", password)) {
            switch (args[0]) {
                case "seed" -> seed(db, args[3], Integer.parseInt(args[4]));
                case "watch" -> watch(db, Integer.parseInt(args[3]), Path.of(args[4]), args.length > 5 ? Integer.parseInt(args[5]) : 300);
                default -> throw new IllegalArgumentException("seed or watch");
            }
        }
    }

    static void seed(Connection db, String app, int n) throws SQLException {
        long appId;
        try (PreparedStatement q = db.prepareStatement("SELECT ID FROM APPS WHERE NAME = ?")) {
            q.setString(1, app);
            try (ResultSet r = q.executeQuery()) {
                if (!r.next()) {
                    throw new IllegalStateException("no app " + app);
                }
                appId = r.getLong(1);
            }
        }
        db.setAutoCommit(false);
        try (Statement s = db.createStatement()) {
            s.executeUpdate("DELETE FROM RUNS WHERE SCHEDULE_ID >= " + FIRST_ID);
            s.executeUpdate("DELETE FROM SCHEDULES WHERE ID >= " + FIRST_ID);
        }
        long now = System.currentTimeMillis();
        long fiveMin = 5 * 60_000L;
        long lastFired = (now - 3 * 3_600_000L) / fiveMin * fiveMin;
        try (PreparedStatement ins = db.prepareStatement("INSERT INTO SCHEDULES (ID, APP_ID, CRON, ZONE, JOB, CREATED_BY, CREATED_AT, LAST_FIRED_TICK)"
                + " VALUES (?, ?, '*/5 * * * *', 'UTC', 'bench', 'bench@example.com', ?, ?)")) {
            for (int i = 0; i < n; i++) {
                ins.setLong(1, FIRST_ID + i);
                ins.setLong(2, appId);
                ins.setLong(3, now - 4 * 3_600_000L);
                ins.setLong(4, lastFired);
                ins.addBatch();
                if (i % 1000 == 999) {
                    ins.executeBatch();
                }
            }
            ins.executeBatch();
        }
        db.commit();
        System.out.println("seeded " + n + " schedules of " + app + " (app id " + appId + "), last fired " + java.time.Instant.ofEpochMilli(lastFired));
    }

    static void watch(Connection db, int n, Path out, int timeoutSeconds) throws Exception {
        long deadline = System.currentTimeMillis() + timeoutSeconds * 1000L;
        String count = "SELECT COUNT(*), COUNT(DISTINCT SCHEDULE_ID) FROM RUNS WHERE ACTOR = 'scheduler.catchup' AND SCHEDULE_ID >= " + FIRST_ID;
        long done = -1;
        long[] seen = {0, 0};
        while (System.currentTimeMillis() < deadline) {
            try (Statement s = db.createStatement(); ResultSet r = s.executeQuery(count)) {
                r.next();
                seen[0] = r.getLong(1);
                seen[1] = r.getLong(2);
            } catch (SQLException e) {
                // the database is busy or restarting: look again
            }
            if (seen[0] >= n) {
                done = System.currentTimeMillis();
                break;
            }
            Thread.sleep(100);
        }
        if (done > 0) {
            Thread.sleep(2000); // a second catch-up of any schedule would show now
            try (Statement s = db.createStatement(); ResultSet r = s.executeQuery(count)) {
                r.next();
                seen[0] = r.getLong(1);
                seen[1] = r.getLong(2);
            }
        }
        Files.writeString(out, done + " " + seen[0] + " " + seen[1] + "\n");
    }
}
