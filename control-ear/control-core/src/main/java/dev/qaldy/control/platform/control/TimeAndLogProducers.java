package dev.qaldy.control.platform.control;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.enterprise.inject.spi.InjectionPoint;
import java.time.Clock;
import java.util.logging.Logger;

/** Produces the {@link Clock} every bean reads time from, and a {@link Logger} named after its user. */
@ApplicationScoped
public class TimeAndLogProducers {

    /** The system clock in UTC; tests of pure rules pass their own clock instead. */
    @Produces
    public Clock clock() {
        return Clock.systemUTC();
    }

    /** A java.util.logging logger named after the class it is injected into. */
    @Produces
    public Logger logger(InjectionPoint point) {
        return Logger.getLogger(point.getMember().getDeclaringClass().getName());
    }
}
