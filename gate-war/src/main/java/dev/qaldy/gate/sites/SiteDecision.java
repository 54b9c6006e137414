package dev.qaldy.gate.sites;

import java.util.Locale;
import java.util.Objects;

/**
 * Whether the gate lets a request into an app without a session.
 *
 * @param accountId for a public site, the account whose cap it counts against
 * @param basis     why, for logs
 */
public record SiteDecision(Verdict verdict, Source source, long accountId, String basis) {

    /** How a public site was let in: {@code asked}, {@code fresh-copy}, {@code outage-copy}. */
    public static final String HEADER = "X-Qaldy-Site";

    public enum Verdict {
        /** Forwarded without a session; shield and cap still apply. */
        PUBLIC,
        /** The session and access steps decide (also for no such app). */
        PRIVATE,
        /** The gate cannot tell: never public; without a session, 503. */
        UNKNOWN
    }

    public enum Source {
        ASKED, FRESH_COPY, OUTAGE_COPY;

        public String header() {
            return name().toLowerCase(Locale.ROOT).replace('_', '-');
        }
    }

    public SiteDecision {
        Objects.requireNonNull(verdict, "verdict");
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(basis, "basis");
    }

    public boolean isPublic() {
        return verdict == Verdict.PUBLIC;
    }

    public boolean unknown() {
        return verdict == Verdict.UNKNOWN;
    }

    static SiteDecision unknown(String basis) {
        return new SiteDecision(Verdict.UNKNOWN, Source.ASKED, VisibilityAnswer.NO_ACCOUNT, basis);
    }
}
