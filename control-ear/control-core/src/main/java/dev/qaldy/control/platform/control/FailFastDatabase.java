package dev.qaldy.control.platform.control;

import org.eclipse.persistence.config.SessionCustomizer;
import org.eclipse.persistence.sessions.DatabaseLogin;
import org.eclipse.persistence.sessions.Session;

/**
 * Makes a lost database fail a request fast (persistence.xml's {@code eclipselink.session.customizer}).
 * EclipseLink retries a read that failed on a communication error 3 times, 5 s apart, so with the
 * database down every person waited 15 s for the 503 (found by {@code bin/qaldy drill}; seed: the
 * API answers a failure, it does not hang). One quick retry is kept, for a pooled connection that
 * went stale when the database restarted. It also registers {@link StartWithoutDatabase}, so the control
 * plane starts while its database is unreachable (issue 6), and {@link MigrateAtLogin}, which brings the
 * schema up to date (issue 19). On PostgreSQL ({@link DatabaseKind}) it sets EclipseLink's platform,
 * which persistence.xml names as H2's.
 */
public class FailFastDatabase implements SessionCustomizer {

    /** Reconnect attempts after a communication failure (EclipseLink's default: 3). */
    static final int RETRIES = 1;
    /** Wait before that attempt, in ms (EclipseLink's default: 5,000). */
    static final int RETRY_DELAY_MS = 200;

    @Override
    public void customize(Session session) {
        if (session.getDatasourceLogin() instanceof DatabaseLogin login) {
            if (DatabaseKind.current() != DatabaseKind.H2) {
                // usePlatform copies what the unit set up on the named one (the entities' sequences,
                // batch writing); setPlatform lost them, and ids came from a table "SEQUENCE".
                login.usePlatform(DatabaseKind.current().platform());
            }
            login.setQueryRetryAttemptCount(RETRIES);
            login.setDelayBetweenConnectionAttempts(RETRY_DELAY_MS);
        }
        StartWithoutDatabase start = new StartWithoutDatabase();
        session.getEventManager().addListener(start);
        session.getEventManager().addListener(new MigrateAtLogin(start));
    }
}
