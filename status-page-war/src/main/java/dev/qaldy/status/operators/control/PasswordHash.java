package dev.qaldy.status.operators.control;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Base64;
import javax.crypto.SecretKeyFactory;
import javax.crypto.spec.PBEKeySpec;

/**
 * PBKDF2-HMAC-SHA256 password hashes, encoded as {@code pbkdf2-sha256$<iterations>$<salt>$<hash>}
 * (salt and hash in unpadded base64). Comparison takes the same time whatever matches.
 */
public final class PasswordHash {

    /** The prefix of an encoded hash. */
    public static final String PREFIX = "pbkdf2-sha256$";
    /** Iterations for new hashes (OWASP's advice for PBKDF2-HMAC-SHA256). */
    public static final int ITERATIONS = 210_000;

    private static final int SALT_BYTES = 16;
    private static final int HASH_BITS = 256;
    private static final SecureRandom RANDOM = new SecureRandom();

    private PasswordHash() {
    }

    /** A new encoded hash of {@code password} with a random salt and {@code iterations}. */
    public static String hash(char[] password, int iterations) {
        byte[] salt = new byte[SALT_BYTES];
        RANDOM.nextBytes(salt);
        return PREFIX + iterations + "$" + b64(salt) + "$" + b64(derive(password, salt, iterations, HASH_BITS));
    }

    /** True when {@code encoded} looks like a hash made by {@link #hash}. */
    public static boolean isEncoded(String encoded) {
        return encoded != null && encoded.startsWith(PREFIX) && encoded.split("\\$").length == 4;
    }

    /** True when {@code password} matches {@code encoded}; false for a malformed hash. */
    public static boolean verify(char[] password, String encoded) {
        if (!isEncoded(encoded)) {
            return false;
        }
        String[] parts = encoded.split("\\$");
        try {
            int iterations = Integer.parseInt(parts[1]);
            byte[] salt = Base64.getDecoder().decode(parts[2]);
            byte[] expected = Base64.getDecoder().decode(parts[3]);
            if (iterations < 1 || expected.length == 0) {
                return false;
            }
            return MessageDigest.isEqual(expected, derive(password, salt, iterations, expected.length * 8));
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    /** Equal strings compared in time that does not depend on where they differ. */
    public static boolean sameText(String a, String b) {
        if (a == null || b == null) {
            return false;
        }
        return MessageDigest.isEqual(a.getBytes(StandardCharsets.UTF_8), b.getBytes(StandardCharsets.UTF_8));
    }

    private static byte[] derive(char[] password, byte[] salt, int iterations, int bits) {
        PBEKeySpec spec = new PBEKeySpec(password, salt, iterations, bits);
        try {
            return SecretKeyFactory.getInstance("PBKDF2WithHmacSHA256").generateSecret(spec).getEncoded();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("PBKDF2WithHmacSHA256 is not available", e);
        } finally {
            spec.clearPassword();
        }
    }

    private static String b64(byte[] bytes) {
        return Base64.getEncoder().withoutPadding().encodeToString(bytes);
    }

    /** Clears {@code chars} (best effort: a password should not linger in memory). */
    public static void clear(char[] chars) {
        if (chars != null) {
            Arrays.fill(chars, '\0');
        }
    }
}
