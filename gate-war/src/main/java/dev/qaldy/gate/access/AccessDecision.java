package dev.qaldy.gate.access;

import java.util.Locale;
import java.util.Objects;

/**
 * What the gate does with one request: only {@link Verdict#ALLOW} is forwarded.
 *
 * @param basis     why, for logs
 * @param accountId for an allow, the account whose cap the app counts against; {@link AccessAnswer#NO_ACCOUNT} when unknown
 */
public record AccessDecision(Verdict verdict, Source source, String basis, long accountId) {

    /** Read by the end-to-end tests. */
    public static final String HEADER = "X-Qaldy-Access";

    public enum Verdict {
        ALLOW,
        /** 403. */
        DENY,
        /** 404. */
        UNKNOWN_APP,
        /** 503 with Retry-After: never a 403 for someone the gate could not ask about. */
        UNAVAILABLE
    }

    public enum Source {
        ASKED,
        FRESH_COPY,
        OUTAGE_COPY,
        /**
         * Refused because the gate may use none of its copies (out of touch with the sharing changes,
         * or cut off alone from the control plane, {@link SyncState#trustsCopies}): a person it
         * remembers is refused too, so their page must not say they keep access.
         */
        OUT_OF_TOUCH;

        public String header() {
            return name().toLowerCase(Locale.ROOT).replace('_', '-');
        }
    }

    public AccessDecision {
        Objects.requireNonNull(verdict, "verdict");
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(basis, "basis");
    }

    public AccessDecision(Verdict verdict, Source source, String basis) {
        this(verdict, source, basis, AccessAnswer.NO_ACCOUNT);
    }

    public boolean allowed() {
        return verdict == Verdict.ALLOW;
    }

    /** The source for a forwarded request, {@code refused} for every other verdict. */
    public String header() {
        return allowed() ? source.header() : "refused";
    }

    public String metricSource() {
        return header().replace('-', '_');
    }

    static AccessDecision unavailable(String basis) {
        return new AccessDecision(Verdict.UNAVAILABLE, Source.ASKED, basis);
    }

    static AccessDecision outOfTouch(String basis) {
        return new AccessDecision(Verdict.UNAVAILABLE, Source.OUT_OF_TOUCH, basis);
    }
}
