package dev.qaldy.gate.access;

import java.util.Locale;
import java.util.Objects;

/**
 * What the gate does with one request: only {@link Verdict#ALLOW} is forwarded.
 *
 * @param verdict what happens
 * @param source  where the verdict came from: the API just now, a fresh copy, or the copy kept
 *                for a control-plane failure
 * @param basis     why, for logs
 * @param accountId for an allow, the account whose spending cap the app counts against (the cap
 *                  step after access); {@link AccessAnswer#NO_ACCOUNT} when unknown
 */
public record AccessDecision(Verdict verdict, Source source, String basis, long accountId) {

    /** The response header that tells how access was decided (read by the end-to-end tests). */
    public static final String HEADER = "X-Qaldy-Access";

    /** The possible verdicts. */
    public enum Verdict {
        /** Forward to the runtime host. */
        ALLOW,
        /** 403 "You don't have access to this app". */
        DENY,
        /** 404: the control plane knows no such app. */
        UNKNOWN_APP,
        /** 503 "Temporarily unavailable", Retry-After: never a 403 for someone the gate could not ask about. */
        UNAVAILABLE
    }

    /** Where a verdict came from. */
    public enum Source {
        /** The control plane answered this request. */
        ASKED,
        /** A remembered answer inside the freshness window, used without asking. */
        FRESH_COPY,
        /** A remembered answer used because the control plane failed. */
        OUTAGE_COPY;

        /** {@code asked}, {@code fresh-copy}, {@code outage-copy}. */
        public String header() {
            return name().toLowerCase(Locale.ROOT).replace('_', '-');
        }
    }

    public AccessDecision {
        Objects.requireNonNull(verdict, "verdict");
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(basis, "basis");
    }

    /** A decision that names no account. */
    public AccessDecision(Verdict verdict, Source source, String basis) {
        this(verdict, source, basis, AccessAnswer.NO_ACCOUNT);
    }

    public boolean allowed() {
        return verdict == Verdict.ALLOW;
    }

    /** The {@link #HEADER} value: the source for a forwarded request, {@code refused} for every other verdict. */
    public String header() {
        return allowed() ? source.header() : "refused";
    }

    /** The metric label: {@code asked}, {@code fresh_copy}, {@code outage_copy} or {@code refused}. */
    public String metricSource() {
        return header().replace('-', '_');
    }

    static AccessDecision unavailable(String basis) {
        return new AccessDecision(Verdict.UNAVAILABLE, Source.ASKED, basis);
    }
}
