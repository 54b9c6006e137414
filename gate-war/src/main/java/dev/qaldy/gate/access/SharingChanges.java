package dev.qaldy.gate.access;

import dev.qaldy.gate.sites.PublicSites;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Applies one sharing change, pushed ({@link SharingVersionPush}) or pulled ({@link GateSync}): the
 * public-site copy first (a former site is not public a moment longer), then the access copies.
 */
@ApplicationScoped
public class SharingChanges {

    @Inject
    AccessCheck access;

    @Inject
    PublicSites sites;

    @Inject
    Logger log;

    /** Drops every copy of the app; answers of older versions are never used again. */
    public void apply(String app, long sharingVersion) {
        sites.sharingChanged(app, sharingVersion);
        access.sharingChanged(app, sharingVersion);
    }

    /** Applied as a push unless already known at that version or newer, so copies given after the change stay. */
    public void applyPulled(String app, long sharingVersion) {
        sites.pulledChange(app, sharingVersion);
        access.pulledChange(app, sharingVersion);
    }

    /** After a gap in the feed: every copy goes. */
    public void forgetAll() {
        sites.forgetAll();
        access.forgetAll();
        log.log(Level.WARNING, "gate: missed sharing changes the control plane no longer keeps; dropped every remembered "
                + "access answer and site copy");
    }
}
