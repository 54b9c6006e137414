package dev.qaldy.gate.access;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/** A clock the test moves by hand (shared by the gate's unit tests). */
public final class MovableClock extends Clock {

    private volatile Instant now;

    public MovableClock(Instant start) {
        this.now = start;
    }

    public void move(Duration by) {
        now = now.plus(by);
    }

    public void set(Instant to) {
        now = to;
    }

    @Override
    public Instant instant() {
        return now;
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
