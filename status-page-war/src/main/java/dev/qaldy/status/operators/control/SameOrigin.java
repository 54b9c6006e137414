package dev.qaldy.status.operators.control;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.Locale;
import java.util.Set;

/**
 * The browser's own word on where a request comes from, checked before any operator change (with
 * the SameSite=Strict cookie and the CSRF token): a request another site makes the browser send
 * is refused.
 */
public final class SameOrigin {

    private static final Set<String> SAME_SITE_FETCHES = Set.of("same-origin", "none");

    private SameOrigin() {
    }

    /**
     * True when {@code Sec-Fetch-Site} (if sent) is {@code same-origin} or {@code none}, and
     * {@code Origin} (if sent) has the same host and port as the request's {@code Host}.
     * Clients that send neither header (curl, tests) are allowed; they still need the cookie and
     * the CSRF token.
     */
    public static boolean allows(String origin, String secFetchSite, String host) {
        if (secFetchSite != null && !SAME_SITE_FETCHES.contains(secFetchSite.trim().toLowerCase(Locale.ROOT))) {
            return false;
        }
        if (origin == null) {
            return true;
        }
        if (host == null || origin.isBlank() || "null".equals(origin.trim())) {
            return false;
        }
        try {
            URI uri = new URI(origin.trim());
            String authority = uri.getRawAuthority();
            return authority != null && authority.equalsIgnoreCase(host.trim());
        } catch (URISyntaxException e) {
            return false;
        }
    }
}
