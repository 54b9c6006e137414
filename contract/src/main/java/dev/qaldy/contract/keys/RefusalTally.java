package dev.qaldy.contract.keys;

import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Logs refused service calls aggregated per client address and clock minute (issue 16: 1,751
 * refused calls wrote 1,751 WARNING lines): an address's first refusal in a minute is logged at
 * once, the rest as one line when the minute has ended. At most {@value #MAX_ADDRESSES} addresses
 * are counted apart per minute, so a minute writes at most 2 × {@value #MAX_ADDRESSES} + 2 lines.
 * Thread-safe.
 */
public final class RefusalTally {

    public static final int MAX_ADDRESSES = 1_000;
    /** Seconds between the checks for a minute that has ended. */
    public static final long SWEEP_SECONDS = 5;
    static final long MINUTE_MS = 60_000;
    static final String OTHERS = "further addresses";

    private final String component;
    private final Logger log;
    private final Clock clock;
    private volatile ScheduledFuture<?> sweeping;
    private final Object lock = new Object();
    /** Epoch ms / {@link #MINUTE_MS}; guarded by {@link #lock}. */
    private long minute = Long.MIN_VALUE;
    /** Refusals after each address's first (logged) one; guarded by {@link #lock}. */
    private final Map<String, Tally> tallies = new HashMap<>();

    private static final class Tally {
        final Set<String> what = new TreeSet<>();
        long unlogged;
    }

    private record Line(String message, Object[] parameters) {
    }

    /** @param component what each line begins with ("gate", "runtime", "control") */
    public RefusalTally(String component, Logger log, Clock clock) {
        this.component = component;
        this.log = log;
        this.clock = clock;
    }

    /** Stops the sweeping and logs the counts not logged yet. */
    public void close() {
        ScheduledFuture<?> running = sweeping;
        if (running != null) {
            running.cancel(false);
        }
        List<Line> lines;
        synchronized (lock) {
            lines = summaries();
        }
        write(lines);
    }

    /** @return true when this refusal was logged on its own line, false when only counted */
    public boolean refused(String what, String address) {
        List<Line> lines;
        boolean first;
        synchronized (lock) {
            lines = roll();
            String key = address;
            Tally tally = tallies.get(key);
            if (tally == null && tallies.size() >= MAX_ADDRESSES) {
                key = OTHERS;
                tally = tallies.get(key);
            }
            first = tally == null;
            if (first) {
                tallies.put(key, new Tally());
                lines.add(key.equals(OTHERS)
                        ? new Line("{3}: refused {0} from {1}; more than {2} addresses were refused this minute: refusals from "
                                + "further addresses are counted together and logged when the minute ends",
                                new Object[] {what, address, Integer.toString(MAX_ADDRESSES), component})
                        : new Line("{2}: refused {0} from {1}; more refusals from {1} this minute are counted and logged when "
                                + "the minute ends", new Object[] {what, address, component}));
            } else {
                tally.unlogged++;
                tally.what.add(what);
            }
        }
        write(lines);
        return first;
    }

    /** Sweeps every {@value #SWEEP_SECONDS} s on {@code executor} (null: none), so an ended minute is logged without a further refusal. */
    public void sweepOn(ScheduledExecutorService executor) {
        if (executor != null) {
            sweeping = executor.scheduleWithFixedDelay(this::sweep, SWEEP_SECONDS, SWEEP_SECONDS, TimeUnit.SECONDS);
        }
    }

    public void sweep() {
        List<Line> lines;
        synchronized (lock) {
            lines = roll();
        }
        write(lines);
    }

    int tracked() {
        synchronized (lock) {
            return tallies.size();
        }
    }

    /** Under the lock. */
    private List<Line> roll() {
        long now = Math.floorDiv(clock.millis(), MINUTE_MS);
        if (now == minute) {
            return new ArrayList<>();
        }
        List<Line> lines = summaries();
        minute = now;
        return lines;
    }

    /** Under the lock. */
    private List<Line> summaries() {
        List<Line> lines = new ArrayList<>();
        if (tallies.isEmpty()) {
            return lines;
        }
        Instant from = Instant.ofEpochMilli(minute * MINUTE_MS);
        tallies.forEach((address, tally) -> {
            if (tally.unlogged > 0) {
                lines.add(new Line("{4}: refused {0} more calls from {1} in the minute from {2}: {3}",
                        new Object[] {Long.toString(tally.unlogged), address, from.toString(), String.join("; ", tally.what), component}));
            }
        });
        tallies.clear();
        return lines;
    }

    private void write(List<Line> lines) {
        for (Line line : lines) {
            log.log(Level.WARNING, line.message(), line.parameters());
        }
    }
}
