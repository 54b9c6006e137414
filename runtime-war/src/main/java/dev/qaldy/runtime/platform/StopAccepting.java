package dev.qaldy.runtime.platform;

import dev.qaldy.contract.platform.PayaraListeners;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.BeforeDestroyed;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.util.logging.Logger;

/**
 * When the process stops, the runtime host's port closes before the host does ({@link PayaraListeners}):
 * the gate then sees a refused connection (its own "can't be reached" page), never a server's 500
 * passed on to a person.
 */
@ApplicationScoped
public class StopAccepting {

    @Inject
    Logger log;

    void stop(@Observes @BeforeDestroyed(ApplicationScoped.class) Object stopping) {
        PayaraListeners.closeAtShutdown(StopAccepting.class.getClassLoader(), log, "runtime");
    }
}
