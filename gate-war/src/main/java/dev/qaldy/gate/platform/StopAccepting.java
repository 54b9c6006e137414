package dev.qaldy.gate.platform;

import dev.qaldy.contract.platform.PayaraListeners;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.BeforeDestroyed;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.util.logging.Logger;

/** When the process stops, the gate's port closes before the gate does ({@link PayaraListeners}): refused, never a server's 500. */
@ApplicationScoped
public class StopAccepting {

    @Inject
    Logger log;

    void stop(@Observes @BeforeDestroyed(ApplicationScoped.class) Object stopping) {
        PayaraListeners.closeAtShutdown(StopAccepting.class.getClassLoader(), log, "gate");
    }
}
