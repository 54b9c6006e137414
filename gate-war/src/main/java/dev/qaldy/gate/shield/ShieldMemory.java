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
 * Keeps the shield's counters across a restart: buckets not full and each app's day count, in
 * {@value #FILE} ({@link ShieldStateFile}) every {@code qaldy.gate.shield.flush-interval} and at stop,
 * never on a request; read once at start. So a limited client stays limited, with or without the
 * control plane.
 *
 * <p>A SIGKILL loses at most one flush interval, so periodic writes reserve ahead: counts higher
 * and buckets lower by what was used since the write before; a graceful stop writes exact counts.
 * Across the restart only the wall clock measures time (none if it went back).
 *
 * <p>Seed: a limit that cannot be known counts as used up, never as unused. An unreadable file is
 * set aside and every bucket starts as if emptied at its last write, every day in force then as used up.
 */
public final class ShieldMemory {

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

    /** @param dir the shield's folder ({@link #directory}) */
    public ShieldMemory(Path dir, RateLimiter buckets, DailyLimits days, Clock clock, TimeMeter meter, Logger log) {
        this.file = dir.resolve(FILE);
        this.buckets = Objects.requireNonNull(buckets, "buckets");
        this.days = Objects.requireNonNull(days, "days");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.meter = Objects.requireNonNull(meter, "meter");
        this.log = Objects.requireNonNull(log, "log");
    }

    /** {@code qaldy.gate.shield-dir}, else {@code ${qaldy.var}/gate-shield}. */
    public static Path directory(Optional<String> dir, String var) {
        return Path.of(dir.filter(d -> !d.isBlank()).orElse(var + "/gate-shield"));
    }

    public Path file() {
        return file;
    }

    /** At start, before the first request. */
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

    /** By its time stamp, at most {@code now}; {@code now} when unknown. */
    private Instant lastWritten(Instant now) {
        try {
            Instant modified = Files.getLastModifiedTime(file).toInstant();
            return modified.isAfter(now) ? now : modified;
        } catch (IOException | RuntimeException e) {
            return now;
        }
    }

    /**
     * The periodic write ({@code graceful} false) reserves ahead and is skipped when nothing changed;
     * the graceful one writes exact counts. A failure is logged once until a write succeeds.
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
