package dev.qaldy.runtime.platform;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.enterprise.inject.spi.InjectionPoint;
import java.util.logging.Logger;

/** A {@code java.util.logging} logger named after the class it is injected into. */
@ApplicationScoped
public class LoggerProducer {

    @Produces
    Logger logger(InjectionPoint point) {
        return Logger.getLogger(point.getMember().getDeclaringClass().getName());
    }
}
