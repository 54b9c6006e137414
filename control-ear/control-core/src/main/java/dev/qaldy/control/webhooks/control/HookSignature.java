package dev.qaldy.control.webhooks.control;

import java.nio.charset.StandardCharsets;
import java.security.InvalidKeyException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.HexFormat;
import java.util.Locale;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The signature rule of webhooks, as the big senders do it: header
 * {@code X-Qaldy-Signature: sha256=<lower-case hex of HMAC-SHA256(secret, raw body)>}. Checked in
 * constant time over the bytes of the digest, so timing tells nothing about how much matched.
 */
public final class HookSignature {

    /** The header a sender signs with. */
    public static final String HEADER = "X-Qaldy-Signature";
    static final String PREFIX = "sha256=";
    private static final SecureRandom RANDOM = new SecureRandom();

    private HookSignature() {
    }

    /** A new secret: 32 random bytes, base64url without padding (43 characters). */
    public static String newSecret() {
        byte[] bytes = new byte[32];
        RANDOM.nextBytes(bytes);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }

    /** The header value a sender computes: {@code sha256=<hex>}. */
    public static String sign(String secret, byte[] body) {
        return PREFIX + HexFormat.of().formatHex(hmac(secret, body));
    }

    /** Whether {@code header} is the signature of {@code body} with {@code secret}; false for anything malformed. */
    public static boolean matches(String secret, byte[] body, String header) {
        if (secret == null || body == null || header == null) {
            return false;
        }
        String value = header.trim();
        if (!value.toLowerCase(Locale.ROOT).startsWith(PREFIX) || value.length() != PREFIX.length() + 64) {
            return false;
        }
        byte[] presented;
        try {
            presented = HexFormat.of().parseHex(value.substring(PREFIX.length()));
        } catch (IllegalArgumentException e) {
            return false;
        }
        return MessageDigest.isEqual(hmac(secret, body), presented);
    }

    /** Lower-case hex SHA-256 of a body, recorded with each delivery. */
    public static String sha256(byte[] body) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(body));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("this JVM has no SHA-256", e);
        }
    }

    private static byte[] hmac(String secret, byte[] body) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
            return mac.doFinal(body);
        } catch (NoSuchAlgorithmException | InvalidKeyException e) {
            throw new IllegalStateException("this JVM cannot compute HMAC-SHA256", e);
        }
    }
}
