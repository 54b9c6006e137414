package dev.qaldy.contract.data;

import dev.qaldy.contract.keys.ServiceCredential;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The grant with which an app's own server code ({@code server.js} on the runtime host) reaches
 * that app's data, and no other app's (issue 16: the runtime host runs tenants' code, so it must
 * not be able to reach an app it is not serving). The gate issues one with each request it passes
 * to the runtime host for an app, the control plane with each job it sends; the runtime host
 * passes it on in {@value #HEADER} to {@code /api/v1/internal/app-data/{app}/…} and cannot make
 * one: it is {@code v1.<expiry, s since the epoch>.<hex HMAC-SHA256(key, "qaldy-data-grant/v1\n"
 * + app + "\n" + expiry)>}, keyed from the gate-to-control credential, which only the gate and
 * the control plane hold. A grant lives {@link #TTL}, longer than any request or job may run.
 */
public final class DataGrants {

    /** The header that carries the grant. */
    public static final String HEADER = "X-Qaldy-Data-Grant";
    /** Where the control plane serves the app-scoped data API: {@code PATH + app + "/" + collection [+ "/" + id]}. */
    public static final String PATH = "/api/v1/internal/app-data/";
    /** How long a grant is good for: a request to an app is bounded by 120 s, a job by less. */
    public static final Duration TTL = Duration.ofMinutes(5);
    /** How far the issuer's clock may run ahead of the verifier's. */
    static final Duration SKEW = Duration.ofSeconds(30);
    static final String VERSION = "v1.";
    private static final String LABEL = "qaldy-data-grant/v1\n";
    private static final int MAX_LENGTH = 128;

    /** A grant is issued again for an app once the one kept for it is this old. */
    static final Duration REISSUE_AFTER = Duration.ofMinutes(1);
    /** Apps whose grants are kept at most; past it the kept ones are dropped (each is one HMAC to make again). */
    static final int MAX_KEPT = 10_000;

    private final byte[] key;
    private final ConcurrentHashMap<String, Kept> kept = new ConcurrentHashMap<>();

    private record Kept(String grant, Instant issuedAt) {
    }

    /** Grants keyed from the gate-to-control credential. */
    public DataGrants(ServiceCredential gateToControl) {
        this.key = hmac(gateToControl.secret().getBytes(StandardCharsets.UTF_8), "qaldy-data-grant-key/v1");
    }

    /** A grant for {@code app} good until {@code now + TTL}. */
    public String issue(String app, Instant now) {
        Objects.requireNonNull(app, "app");
        long expiry = now.plus(TTL).getEpochSecond();
        return VERSION + expiry + "." + HexFormat.of().formatHex(hmac(key, LABEL + app + "\n" + expiry));
    }

    /**
     * A grant for {@code app} with at least {@code TTL - REISSUE_AFTER} to live at {@code now}: the
     * one issued last for it while it is younger than {@link #REISSUE_AFTER}, so a busy edge makes
     * one HMAC per app a minute, not one per request.
     */
    public String current(String app, Instant now) {
        Kept last = kept.get(app);
        if (last != null && last.issuedAt().plus(REISSUE_AFTER).isAfter(now) && !last.issuedAt().isAfter(now)) {
            return last.grant();
        }
        if (kept.size() >= MAX_KEPT) {
            kept.clear();
        }
        String grant = issue(app, now);
        kept.put(app, new Kept(grant, now));
        return grant;
    }

    /**
     * Whether {@code presented} is a grant for {@code app} still good at {@code now} (constant-time
     * comparison; false for anything missing, malformed, expired, or expiring further ahead than
     * {@link #TTL} allows).
     */
    public boolean allows(String app, String presented, Instant now) {
        if (app == null || presented == null || presented.length() > MAX_LENGTH || !presented.startsWith(VERSION)) {
            return false;
        }
        int dot = presented.indexOf('.', VERSION.length());
        if (dot < 0) {
            return false;
        }
        long expiry;
        try {
            expiry = Long.parseLong(presented.substring(VERSION.length(), dot));
        } catch (NumberFormatException e) {
            return false;
        }
        if (expiry <= now.getEpochSecond() || expiry > now.plus(TTL).plus(SKEW).getEpochSecond()) {
            return false;
        }
        byte[] expected = HexFormat.of().formatHex(hmac(key, LABEL + app + "\n" + expiry)).getBytes(StandardCharsets.US_ASCII);
        return MessageDigest.isEqual(expected, presented.substring(dot + 1).getBytes(StandardCharsets.US_ASCII));
    }

    private static byte[] hmac(byte[] key, String text) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key, "HmacSHA256"));
            return mac.doFinal(text.getBytes(StandardCharsets.UTF_8));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("this JVM has no HMAC-SHA256", e);
        }
    }
}
