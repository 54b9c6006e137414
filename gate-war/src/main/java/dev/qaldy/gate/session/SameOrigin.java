package dev.qaldy.gate.session;

import java.net.URI;
import java.util.Locale;

/**
 * Whether a state-changing request (a sign-out) comes from the origin it is sent to, as browsers
 * say it (issue 16: {@code /.qaldy/signout} took a cross-site GET, so any page could sign a person
 * out of an app). The rule of Go's {@code http.CrossOriginProtection} and the Fetch Metadata
 * guidance: {@code Sec-Fetch-Site} decides when present ({@code same-origin}, or {@code none} for
 * what the person typed or bookmarked); else {@code Origin}, when present, must name the request's
 * own Host; a request with neither comes from no browser (curl, a test), which cannot carry a
 * person's cookie across sites, and passes.
 */
public final class SameOrigin {

    private SameOrigin() {
    }

    /**
     * @param secFetchSite the {@code Sec-Fetch-Site} header, or null
     * @param origin       the {@code Origin} header, or null
     * @param host         the request's {@code Host} header
     * @return true when the request may change state
     */
    public static boolean allows(String secFetchSite, String origin, String host) {
        if (secFetchSite != null) {
            String site = secFetchSite.strip().toLowerCase(Locale.ROOT);
            return site.equals("same-origin") || site.equals("none");
        }
        if (origin == null) {
            return true;
        }
        if (host == null || origin.strip().equals("null")) {
            return false;
        }
        try {
            URI uri = URI.create(origin.strip());
            String authority = uri.getRawAuthority();
            return uri.getScheme() != null && authority != null && authority.equalsIgnoreCase(host.strip());
        } catch (IllegalArgumentException e) {
            return false;
        }
    }
}
