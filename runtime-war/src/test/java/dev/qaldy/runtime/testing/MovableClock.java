package dev.qaldy.runtime.testing;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicReference;

/** A clock that stands still until a test moves it. */
public final class MovableClock extends Clock {

    private final AtomicReference<Instant> now;

    public MovableClock(Instant start) {
        this.now = new AtomicReference<>(start);
    }

    public void advance(Duration by) {
        now.updateAndGet(t -> t.plus(by));
    }

    @Override
    public Instant instant() {
        return now.get();
    }

    @Override
    public ZoneId getZone() {
        return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
        throw new UnsupportedOperationException();
    }
}
