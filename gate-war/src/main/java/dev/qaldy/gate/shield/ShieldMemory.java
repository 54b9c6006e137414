package dev.qaldy.gate.shield;

import dev.qaldy.contract.files.KeptFile;
import io.github.bucket4j.TimeMeter;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Keeps the shield's counters across a restart, the way the spending cap's usage is kept: the
 * token buckets that are not full and every app's count of the day, written to
 * {@code shield-state.jsonl} in the shield's folder ({@link ShieldStateFile}; atomic, bounded by
 * the shield's bounds) every {@code qaldy.gate.shield.flush-interval} and when the gate stops, never
 * on a request; read once at start, before the first request. So a client limited before a restart
 * stays limited for the rest of its window, its minute's bucket and its app's day, with or without
 * the control plane.
 *
 * <p>What a SIGKILL loses is what was counted after the last write, at most one flush interval of
 * requests; to err toward "used", every periodic write reserves ahead: each count is written higher,
 * and each bucket lower, by what it used since the write before (as if that pace went on until the
 * kill). A graceful stop writes the exact counts. Time across the restart is measured by the wall
 * clock only (the monotonic one starts anew): a bucket refills by the wall-clock time since the write
 * (none if the clock went back), a day ends at its instant.
 *
 * <p>A file that cannot be read is set aside ({@code .refused}, one WARNING line) and what it held
 * counts as used up, never as unused: every bucket starts as if emptied when the file was last
 * written, and every app's day in force then counts as used up until it ends.
 */
public final class ShieldMemory {

    /** The file's name in the shield's folder. */
    static final String FILE = "shield-state.jsonl";

    private final Path file;
    private final RateLimiter buckets;
    private final DailyLimits days;
    private final Clock clock;
    private final TimeMeter meter;
    private final Logger log;
    private List<RateLimiter.Kept> lastBuckets;
    private List<DailyLimits.Kept> lastDays;
    private boolean failing;

    /**
     * @param dir   the shield's folder ({@link #directory})
     * @param clock the wall clock
     * @param meter the monotonic clock the buckets run on
     */
    public ShieldMemory(Path dir, RateLimiter buckets, DailyLimits days, Clock clock, TimeMeter meter, Logger log) {
        this.file = dir.resolve(FILE);
        this.buckets = Objects.requireNonNull(buckets, "buckets");
        this.days = Objects.requireNonNull(days, "days");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.meter = Objects.requireNonNull(meter, "meter");
        this.log = Objects.requireNonNull(log, "log");
    }

    /** The shield's folder: {@code qaldy.gate.shield-dir}, else {@code ${qaldy.var}/gate-shield}. */
    public static Path directory(Optional<String> dir, String var) {
        return Path.of(dir.filter(d -> !d.isBlank()).orElse(var + "/gate-shield"));
    }

    /** Where the counters are kept. */
    public Path file() {
        return file;
    }

    /** Reads what was kept (at start, before the first request); see the class for a file that cannot be read. */
    public void restore() {
        ShieldStateFile.Read read = ShieldStateFile.read(file, buckets.maxBuckets() + days.maxCounters());
        Instant now = clock.instant();
        if (read instanceof ShieldStateFile.Held held) {
            long elapsed = Duration.between(held.savedAt(), now).toMillis();
            try {
                held.buckets().forEach(kept -> buckets.restore(kept, elapsed));
                held.days().forEach(days::restore);
            } catch (RuntimeException e) {
                read = new ShieldStateFile.Corrupt("an entry this gate cannot take back: " + e); // never a gate that cannot start
            }
        }
        if (read instanceof ShieldStateFile.Held held) {
            lastBuckets = held.buckets();
            lastDays = held.days();
            log.log(Level.INFO, "gate: shield: {0} token buckets that were not full and {1} apps'' daily counts read from {2}, kept {3} s ago",
                    new Object[] {held.buckets().size(), held.days().size(), file, Duration.between(held.savedAt(), now).toSeconds()});
        } else if (read instanceof ShieldStateFile.Corrupt corrupt) {
            Instant lostAt = lastWritten(now);
            buckets.assumeEmptySince(meter.currentTimeNanos() - Duration.between(lostAt, now).toNanos());
            days.assumeUsedUpOn(lostAt);
            log.log(Level.WARNING, "gate: shield: cannot read the counters kept in {0} ({1}); {2}; what it held counts as used up: "
                    + "rate limits as if every bucket was emptied at {3}, daily limits as reached for the day in force then",
                    new Object[] {file, corrupt.why(), KeptFile.setAsideSaying(file), lostAt});
        } else {
            log.log(Level.INFO, "gate: shield: no counters kept in {0} yet", file);
        }
    }

    /** When the file was last written, by its time stamp: no later than {@code now}, and {@code now} when unknown. */
    private Instant lastWritten(Instant now) {
        try {
            Instant modified = Files.getLastModifiedTime(file).toInstant();
            return modified.isAfter(now) ? now : modified;
        } catch (IOException | RuntimeException e) {
            return now;
        }
    }

    /**
     * Writes the counters unless they are what was written last: with a reserve ahead
     * ({@code graceful} false, the periodic write), or exactly (the gate stops). A failure is
     * logged once until a write succeeds again, and tried again at the next flush.
     */
    public synchronized void flush(boolean graceful) {
        List<RateLimiter.Kept> nowBuckets = buckets.snapshot(!graceful);
        List<DailyLimits.Kept> nowDays = days.snapshot(!graceful);
        if (!graceful && nowBuckets.equals(lastBuckets) && nowDays.equals(lastDays)) {
            return;
        }
        try {
            ShieldStateFile.write(file, new ShieldStateFile.Held(clock.instant(), nowBuckets, nowDays));
            lastBuckets = nowBuckets;
            lastDays = nowDays;
            if (failing) {
                failing = false;
                log.log(Level.INFO, "gate: shield: counters written to {0} again", file);
            }
        } catch (IOException | RuntimeException e) {
            if (!failing) {
                failing = true;
                log.log(Level.WARNING, "gate: shield: cannot write the counters to {0}: {1}; tried again at each flush",
                        new Object[] {file, e.toString()});
            }
        }
    }
}
