package dev.qaldy.status.platform;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.enterprise.inject.spi.InjectionPoint;
import java.util.logging.Logger;

/** A java.util.logging {@link Logger} named after the class it is injected into. */
@ApplicationScoped
public class LoggerProducer {

    @Produces
    public Logger logger(InjectionPoint point) {
        return Logger.getLogger(point.getMember().getDeclaringClass().getName());
    }
}
