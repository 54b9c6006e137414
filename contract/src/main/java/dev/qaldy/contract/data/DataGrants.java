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
 * The grant with which an app's own server code on the runtime host reaches that app's data and no
 * other's (issue 16: the runtime host runs tenants' code). The gate issues one per request, the
 * control plane per job; the runtime host only passes it on in {@value #HEADER}. Format:
 * {@code v1.<expiry, epoch s>.<hex HMAC-SHA256(key, "qaldy-data-grant/v1\n" + app + "\n" + expiry)>},
 * keyed from the gate-to-control credential, which the runtime host does not hold.
 */
public final class DataGrants {

    public static final String HEADER = "X-Qaldy-Data-Grant";
    /** {@code PATH + app + "/" + collection [+ "/" + id]}. */
    public static final String PATH = "/api/v1/internal/app-data/";
    /** Longer than any request or job may run. */
    public static final Duration TTL = Duration.ofMinutes(5);
    /** How far the issuer's clock may run ahead of the verifier's. */
    static final Duration SKEW = Duration.ofSeconds(30);
    static final String VERSION = "v1.";
    private static final String LABEL = "qaldy-data-grant/v1\n";
    private static final int MAX_LENGTH = 128;

    static final Duration REISSUE_AFTER = Duration.ofMinutes(1);
    /** Past it the kept grants are dropped (each is one HMAC to make again). */
    static final int MAX_KEPT = 10_000;

    private final byte[] key;
    private final ConcurrentHashMap<String, Kept> kept = new ConcurrentHashMap<>();

    private record Kept(String grant, Instant issuedAt) {
    }

    public DataGrants(ServiceCredential gateToControl) {
        this.key = hmac(gateToControl.secret().getBytes(StandardCharsets.UTF_8), "qaldy-data-grant-key/v1");
    }

    public String issue(String app, Instant now) {
        Objects.requireNonNull(app, "app");
        long expiry = now.plus(TTL).getEpochSecond();
        return VERSION + expiry + "." + HexFormat.of().formatHex(hmac(key, LABEL + app + "\n" + expiry));
    }

    /** The grant last issued for {@code app} while younger than {@link #REISSUE_AFTER}: one HMAC per app a minute, not per request. */
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

    /** Constant-time; false for anything missing, malformed, expired, or expiring further ahead than {@link #TTL} + skew. */
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
