package dev.qaldy.contract.data;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.Objects;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The app-scoped credential with which an app's own server code ({@code server.js} on the runtime
 * host) reaches that app's data, and no other app's: {@code v1.<hex HMAC-SHA256(service secret,
 * "qaldy-app-data/v1\n" + app)>}, sent in {@value #HEADER} to {@code /api/v1/internal/app-data/{app}/…}.
 * The runtime host derives it per call from the cell's service secret and the app of the bundle
 * it runs; the control plane derives it again for the app named in the path and compares in
 * constant time. The service token itself never travels with these calls, and a credential that
 * leaks opens one app's data only.
 */
public final class AppDataKeys {

    /** The header that carries the credential. */
    public static final String HEADER = "X-Qaldy-App-Key";
    /** Where the control plane serves the app-scoped data API: {@code PATH + app + "/" + collection [+ "/" + id]}. */
    public static final String PATH = "/api/v1/internal/app-data/";
    static final String VERSION = "v1.";
    private static final String LABEL = "qaldy-app-data/v1\n";

    private AppDataKeys() {
    }

    /**
     * The credential of {@code app}.
     *
     * @param serviceSecret the cell's shared service secret (at least one character)
     * @param app           the app's name
     */
    public static String derive(String serviceSecret, String app) {
        Objects.requireNonNull(app, "app");
        if (serviceSecret == null || serviceSecret.isEmpty()) {
            throw new IllegalArgumentException("no service secret to derive an app's credential from");
        }
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(serviceSecret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
            return VERSION + HexFormat.of().formatHex(mac.doFinal((LABEL + app).getBytes(StandardCharsets.UTF_8)));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("this JVM has no HMAC-SHA256", e);
        }
    }

    /** Whether {@code presented} is the credential of {@code app}; constant time, false for anything missing. */
    public static boolean matches(String serviceSecret, String app, String presented) {
        if (serviceSecret == null || serviceSecret.isEmpty() || app == null || presented == null) {
            return false;
        }
        return MessageDigest.isEqual(derive(serviceSecret, app).getBytes(StandardCharsets.UTF_8),
                presented.trim().getBytes(StandardCharsets.UTF_8));
    }
}
