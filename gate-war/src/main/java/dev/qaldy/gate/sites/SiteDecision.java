package dev.qaldy.gate.sites;

import java.util.Locale;
import java.util.Objects;

/**
 * Whether the gate lets a request into an app without a session.
 *
 * @param verdict   what it is
 * @param source    where the verdict came from
 * @param accountId for a public site, the account whose spending cap it counts against
 * @param basis     why, for logs
 */
public record SiteDecision(Verdict verdict, Source source, long accountId, String basis) {

    /** The response header that tells how a public site was let in: {@code asked}, {@code fresh-copy}, {@code outage-copy}. */
    public static final String HEADER = "X-Qaldy-Site";

    /** The verdicts. */
    public enum Verdict {
        /** Anyone may open it: forwarded without a session (shield and cap still apply). */
        PUBLIC,
        /** Not public (an app behind sign-in, or no such app): the session and access steps decide. */
        PRIVATE,
        /**
         * The gate cannot tell (the control plane fails and nothing is remembered, or it answered
         * outside the contract): never public; without a session, 503.
         */
        UNKNOWN
    }

    /** Where a verdict came from. */
    public enum Source {
        ASKED, FRESH_COPY, OUTAGE_COPY;

        /** {@code asked}, {@code fresh-copy}, {@code outage-copy}. */
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
