package dev.qaldy.control.people.control;

import dev.qaldy.control.people.entity.SessionSignedOut;
import dev.qaldy.control.platform.control.CellBroadcast;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.event.TransactionPhase;
import jakarta.inject.Inject;
import jakarta.json.Json;

/**
 * Tells every gate of the cell that a session token was signed out, after the sign-out is
 * committed and before the API answers it (gates verify tokens locally, so without this a
 * signed-out token would open apps until its expiry, up to 12 h). Each gate receives
 * {@code POST /.qaldy/internal/signed-out-sessions} {@code {"tokenId":"…","expiresAt":<epoch ms>}}
 * through {@link CellBroadcast}. A gate that cannot be reached is logged; it reads the whole list
 * again once the control plane answers it after failing, and every {@code qaldy.gate.signed-out-refresh}
 * (see docs/cell-contract.md).
 */
@ApplicationScoped
public class SignOutPush {

    /** The gate's internal path for sign-out pushes. */
    static final String PATH = "/.qaldy/internal/signed-out-sessions";

    @Inject
    CellBroadcast broadcast;

    /** Runs after a successful commit, in the thread that answers the sign-out. */
    void push(@Observes(during = TransactionPhase.AFTER_SUCCESS) SessionSignedOut signedOut) {
        String body = Json.createObjectBuilder()
                .add("tokenId", signedOut.tokenId())
                .add("expiresAt", signedOut.expiresAt().toEpochMilli())
                .build().toString();
        broadcast.toGates(PATH, body, "the sign-out of session " + signedOut.tokenId());
    }
}
