package dev.qaldy.control.billing.control;

import dev.qaldy.control.billing.entity.CapStateChanged;
import dev.qaldy.control.platform.control.CellBroadcast;
import dev.qaldy.control.platform.control.CellPush.Delivery;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.event.TransactionPhase;
import jakarta.inject.Inject;
import java.util.Map;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Pushes a changed cap state to every gate and every runtime host once its transaction commits
 * (issue 16 item 5: the runtime host, which runs server code, learns that an account fell asleep as
 * fast as the gate does, not a refresh later). Each takes it as a fetched state (older ones are
 * refused there); one that does not answer learns it at its next refresh
 * ({@code qaldy.cap.refresh}). The API's answer waits for the pushes, at most the push timeout.
 */
@ApplicationScoped
public class CapPush {

    /** The path of the cap-state endpoint on the gates' internal listeners and on the runtime hosts. */
    public static final String PATH = "/.qaldy/internal/cap-states";
    private static final String JWS = "application/jose";

    @Inject
    CellBroadcast broadcast;

    @Inject
    Logger log;

    void committed(@Observes(during = TransactionPhase.AFTER_SUCCESS) CapStateChanged changed) {
        String what = "the cap state of account " + changed.accountId() + " (" + changed.why() + ")";
        Map<String, Delivery> atGates = broadcast.toGates(PATH, changed.state(), JWS, what);
        Map<String, Delivery> atHosts = broadcast.toRuntimeHosts(PATH, changed.state(), JWS, what);
        log.log(Level.FINE, "pushed {0}: gates {1}, runtime hosts {2}", new Object[] {what, atGates, atHosts});
    }
}
