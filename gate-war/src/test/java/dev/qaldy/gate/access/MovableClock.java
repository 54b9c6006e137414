package dev.qaldy.gate.access;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/** A clock the test moves by hand. */
final class MovableClock extends Clock {

    private volatile Instant now;

    MovableClock(Instant start) {
        this.now = start;
    }

    void move(Duration by) {
        now = now.plus(by);
    }

    void set(Instant to) {
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
