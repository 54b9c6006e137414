package dev.qaldy.control.builds.control;

import dev.qaldy.control.platform.control.NotFound;
import java.util.Map;

/**
 * No such app, or nothing of it is live (404), with the signed tombstone the runtime host writes
 * over the app's data-centre record, so no older record of it can be served in a later outage.
 * The problem body carries it as the member {@value #MEMBER}.
 */
public class NoLiveVersion extends NotFound {

    private static final long serialVersionUID = 1L;
    /** The problem member holding the tombstone (a compact JWS). */
    public static final String MEMBER = "tombstone";

    private final String tombstone;

    public NoLiveVersion(String detail, String tombstone) {
        super(detail);
        this.tombstone = tombstone;
    }

    @Override
    public Map<String, String> members() {
        return Map.of(MEMBER, tombstone);
    }
}
