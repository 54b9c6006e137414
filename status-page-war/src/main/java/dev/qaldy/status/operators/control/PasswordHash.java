package dev.qaldy.status.operators.control;

import dev.qaldy.contract.passwords.PasswordHashing;
import jakarta.security.enterprise.identitystore.Pbkdf2PasswordHash;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Arrays;
import java.util.Base64;

/**
 * The operator's password hashes: Jakarta Security's {@link Pbkdf2PasswordHash} with the cell's
 * parameters ({@link PasswordHashing}, as the control plane hashes people's passwords), encoded as
 * {@code PBKDF2WithHmacSHA512:<iterations>:<salt>:<hash>}. Comparisons take the same time whatever matches.
 */
public final class PasswordHash {

    /** How every encoded hash begins. */
    public static final String PREFIX = PasswordHashing.ALGORITHM + ":";

    private final Pbkdf2PasswordHash pbkdf2;

    /** Sets {@code pbkdf2} up with the cell's parameters and {@code iterations} (tests use fewer). */
    public PasswordHash(Pbkdf2PasswordHash pbkdf2, int iterations) {
        pbkdf2.initialize(PasswordHashing.parameters(iterations));
        this.pbkdf2 = pbkdf2;
    }

    /** A new encoded hash of {@code password} with a random salt. */
    public String hash(char[] password) {
        return pbkdf2.generate(password);
    }

    /** True when {@code password} matches {@code encoded}; false for a malformed hash. */
    public boolean verify(char[] password, String encoded) {
        if (!isEncoded(encoded)) {
            return false;
        }
        try {
            return pbkdf2.verify(password, encoded);
        } catch (RuntimeException e) {
            return false;
        }
    }

    /** True when {@code encoded} is shaped like a hash {@link #hash} makes (algorithm, iterations > 0, salt, hash). */
    public static boolean isEncoded(String encoded) {
        if (encoded == null || !encoded.startsWith(PREFIX)) {
            return false;
        }
        String[] parts = encoded.split(":", -1);
        try {
            return parts.length == 4 && Integer.parseInt(parts[1]) > 0 && Base64.getDecoder().decode(parts[2]).length > 0
                    && Base64.getDecoder().decode(parts[3]).length > 0;
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

    /** Clears {@code chars} (best effort: a password should not linger in memory). */
    public static void clear(char[] chars) {
        if (chars != null) {
            Arrays.fill(chars, '\0');
        }
    }
}
