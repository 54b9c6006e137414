package dev.qaldy.gate.access;

import dev.qaldy.gate.sites.PublicSites;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Applies one sharing change, whether it came by the control plane's push
 * ({@link SharingVersionPush}) or by the gate's pull of the sharing-changes feed ({@link GateSync}):
 * the app's public-site copy first (a former site is not public a moment longer), then its
 * remembered access answers. A pulled change the gate already knows (its push came first) is not
 * applied again.
 */
@ApplicationScoped
public class SharingChanges {

    @Inject
    AccessCheck access;

    @Inject
    PublicSites sites;

    @Inject
    Logger log;

    /**
     * {@code app}'s sharing changed to {@code sharingVersion}: every copy of the app is dropped and
     * answers of older versions are never used again.
     */
    public void apply(String app, long sharingVersion) {
        sites.sharingChanged(app, sharingVersion);
        access.sharingChanged(app, sharingVersion);
    }

    /**
     * A change pulled from the feed ({@link GateSync}): applied as a push unless already known at
     * that version or newer (usually from the push itself), so copies the API gave after the change
     * are kept.
     */
    public void applyPulled(String app, long sharingVersion) {
        sites.pulledChange(app, sharingVersion);
        access.pulledChange(app, sharingVersion);
    }

    /** The gate missed changes it can no longer learn (a gap in the feed): every copy goes. */
    public void forgetAll() {
        sites.forgetAll();
        access.forgetAll();
        log.log(Level.WARNING, "gate: missed sharing changes the control plane no longer keeps; dropped every remembered "
                + "access answer and site copy");
    }
}
