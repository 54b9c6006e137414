package dev.qaldy.contract.http;

import java.util.Locale;

/**
 * Whether an answer of the control plane is its API speaking: the API answers every 4xx with problem
 * JSON (RFC 9457); a 4xx without it is the server in front, e.g. its own 404 while the application
 * is not deployed yet. Such an answer is a control-plane failure like a 5xx, never "no such app".
 */
public final class ProblemJson {

    public static final String MEDIA_TYPE = "application/problem+json";

    private ProblemJson() {
    }

    /** {@code contentType} is a Content-Type value, parameters allowed; null for none. */
    public static boolean is(String contentType) {
        if (contentType == null) {
            return false;
        }
        int semicolon = contentType.indexOf(';');
        String type = (semicolon < 0 ? contentType : contentType.substring(0, semicolon)).strip().toLowerCase(Locale.ROOT);
        return type.equals(MEDIA_TYPE);
    }

    /** A 1xx–3xx, or a 4xx with problem JSON. */
    public static boolean fromTheApi(int status, String contentType) {
        return status < 400 || is(contentType);
    }
}
