package dev.qaldy.gate.shield;

import io.github.bucket4j.TimeMeter;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/**
 * Both of the gate's clocks, moved by hand: the wall clock ({@link Clock}) and the monotonic one
 * ({@link TimeMeter}). Time passing moves both; a wall-clock step moves the wall clock alone.
 */
final class FakeTime extends Clock implements TimeMeter {

    private volatile Instant wall;
    private volatile long nanos = 5_000_000_000_000L; // any start: only differences count

    FakeTime(Instant start) {
        this.wall = start;
    }

    /** Another process's clocks: the same wall clock, a monotonic clock with another origin. */
    FakeTime(Instant start, long nanos) {
        this.wall = start;
        this.nanos = nanos;
    }

    /** Time passes: both clocks move. */
    void pass(Duration by) {
        wall = wall.plus(by);
        nanos += by.toNanos();
    }

    /** The wall clock is set forward or back (NTP step, operator); monotonic time does not move. */
    void stepWall(Duration by) {
        wall = wall.plus(by);
    }

    @Override
    public long currentTimeNanos() {
        return nanos;
    }

    @Override
    public boolean isWallClockBased() {
        return false;
    }

    @Override
    public Instant instant() {
        return wall;
    }

    @Override
    public ZoneId getZone() {
        return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
        return this;
    }
}
