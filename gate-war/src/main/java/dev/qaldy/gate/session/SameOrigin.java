package dev.qaldy.gate.session;

import java.net.URI;
import java.util.Locale;

/**
 * Whether a state-changing request comes from the origin it is sent to (issue 16: a cross-site GET
 * could sign people out). Go's {@code http.CrossOriginProtection} rule: {@code Sec-Fetch-Site}
 * decides when present ({@code same-origin} or {@code none}); else {@code Origin} must name the
 * request's Host; with neither it is no browser's request and passes.
 */
public final class SameOrigin {

    private SameOrigin() {
    }

    /** @return true when the request may change state */
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
