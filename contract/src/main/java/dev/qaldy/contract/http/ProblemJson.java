package dev.qaldy.contract.http;

import java.util.Locale;

/**
 * Whether an answer of the control plane is its API speaking. The API answers every 4xx with its
 * problem JSON ({@code application/problem+json}, RFC 9457); a 4xx without it comes from the
 * server in front of the API, e.g. the server's own 404 page for every path while the control
 * plane's application is not deployed yet (a start during a database outage, or under load, opens
 * the port a minute or two before the application serves). Such an answer is a failure of the
 * control plane, like a 5xx: never "no such app", "nothing published" or "no such record".
 */
public final class ProblemJson {

    /** The API's media type for problems. */
    public static final String MEDIA_TYPE = "application/problem+json";

    private ProblemJson() {
    }

    /** Whether {@code contentType} (a Content-Type header's value, parameters allowed; null or "" for none) is problem JSON. */
    public static boolean is(String contentType) {
        if (contentType == null) {
            return false;
        }
        int semicolon = contentType.indexOf(';');
        String type = (semicolon < 0 ? contentType : contentType.substring(0, semicolon)).strip().toLowerCase(Locale.ROOT);
        return type.equals(MEDIA_TYPE);
    }

    /** Whether an answer below 500 with {@code status} and {@code contentType} is the API's own: a 1xx–3xx, or a 4xx with its problem JSON. */
    public static boolean fromTheApi(int status, String contentType) {
        return status < 400 || is(contentType);
    }
}
