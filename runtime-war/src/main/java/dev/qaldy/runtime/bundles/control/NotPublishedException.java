package dev.qaldy.runtime.bundles.control;

import dev.qaldy.runtime.platform.ServingException;

/**
 * The control plane says: no such app, no live version, or that version is gone (HTTP 404); for
 * an app, with the signed tombstone its answer carried (a compact JWS, unverified here), if any.
 */
public class NotPublishedException extends ServingException {

    private static final long serialVersionUID = 1L;

    private final String tombstone;

    public NotPublishedException(String logMessage) {
        this(logMessage, null);
    }

    public NotPublishedException(String logMessage, String tombstone) {
        super(logMessage);
        this.tombstone = tombstone;
    }

    /** The signed tombstone of the control plane's answer, or null when it carried none. */
    public String tombstone() {
        return tombstone;
    }

    @Override
    public int status() {
        return 404;
    }

    @Override
    public String type() {
        return "not-published";
    }

    @Override
    public String title() {
        return "No such app or nothing published yet";
    }

    @Override
    public String detail() {
        return "There is no app at this address, or its owner has not published it yet. Check the address, or come back later.";
    }
}
