package dev.qaldy.control.webhooks.control;

import dev.qaldy.control.platform.control.CellPush.Delivery;
import dev.qaldy.control.platform.control.CellBroadcast;
import dev.qaldy.control.webhooks.entity.HookChanged;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.event.TransactionPhase;
import jakarta.inject.Inject;
import java.util.Map;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Pushes a made or deleted hook's material to every gate once its transaction commits and before
 * the API answers the change (issue 17, as sharing changes are pushed): {@code POST
 * /.qaldy/internal/hooks} on each gate's internal listener, the control-to-gate credential. A gate
 * the push misses learns it from the feed ({@code qaldy.gate.hooks.refresh}). The log never carries the secret.
 */
@ApplicationScoped
public class HookPush {

    /** The gate's internal path for hook pushes. */
    public static final String PATH = "/.qaldy/internal/hooks";

    @Inject
    CellBroadcast broadcast;

    @Inject
    Logger log;

    void committed(@Observes(during = TransactionPhase.AFTER_SUCCESS) HookChanged changed) {
        var m = changed.material();
        String what = "hook " + m.app() + "/" + m.hook() + (m.deleted() ? " deleted" : " made") + " (change " + m.sequence() + ")";
        Map<String, Delivery> deliveries = broadcast.toGates(PATH, m.toJson().toString(), what);
        log.log(Level.FINE, "pushed {0}: {1}", new Object[] {what, deliveries});
    }
}
