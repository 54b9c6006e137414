package dev.qaldy.control.platform.control;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The control plane's log of its database's outages (issue 21): one WARNING when the database stops
 * answering, naming why, and one INFO when it answers again, with how long it was away and how many
 * answers were refused meanwhile; each refusal in between only at FINE. An outage is expected (the
 * API answers 503 with {@code Retry-After} and recovers by itself), so it is reported once, not per
 * request: a 91 s outage on Open Liberty had written a warning with EclipseLink's whole exception
 * (about 17 KB) for every request it refused.
 */
@ApplicationScoped
public class DatabaseOutage {

    /** At most this many characters of the cause in the outage's warning. */
    static final int CAUSE_CHARS = 300;

    @Inject
    Logger log;

    @Inject
    Clock clock;

    private Instant since;
    private long refused;

    /** For CDI. */
    protected DatabaseOutage() {
    }

    /** Logging to {@code log}, timed by {@code clock} (tests). */
    public DatabaseOutage(Logger log, Clock clock) {
        this.log = log;
        this.clock = clock;
    }

    /** The database did not answer: {@code cause} is why; the first one of an outage is logged as a WARNING. */
    public void lost(Throwable cause) {
        boolean first;
        synchronized (this) {
            first = since == null;
            if (first) {
                since = clock.instant();
                refused = 0;
            }
            refused++;
        }
        if (first) {
            log.log(Level.WARNING, "database unreachable: {0}; the API answers 503 until it answers again (said once per outage)",
                    cause(cause));
        } else {
            log.log(Level.FINE, "database still unreachable: {0}", cause(cause));
        }
    }

    /** The database answered; ends an outage, saying so once. */
    public void answered() {
        Instant began;
        long count;
        synchronized (this) {
            if (since == null) {
                return;
            }
            began = since;
            count = refused;
            since = null;
        }
        log.log(Level.INFO, "database answers again after {0} s unreachable ({1} failed calls meanwhile)",
                new Object[] {Duration.between(began, clock.instant()).toSeconds(), count});
    }

    /** Whether the database is unreachable as far as the control plane last saw. */
    public synchronized boolean ongoing() {
        return since != null;
    }

    /** The deepest cause of {@code thrown}, one line: its class and message, at most {@link #CAUSE_CHARS}. */
    static String cause(Throwable thrown) {
        Throwable root = thrown;
        for (int depth = 0; root.getCause() != null && root.getCause() != root && depth < 30; depth++) {
            root = root.getCause();
        }
        String text = root.getClass().getName() + (root.getMessage() == null ? "" : ": " + root.getMessage());
        text = text.replaceAll("\\s+", " ").strip();
        return text.length() <= CAUSE_CHARS ? text : text.substring(0, CAUSE_CHARS) + "…";
    }
}
