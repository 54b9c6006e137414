package dev.qaldy.contract.passwords;

import java.util.Map;

/**
 * The one rule for password hashes in the cell (people's passwords in the control plane, the
 * status page's operator): Jakarta Security's {@code Pbkdf2PasswordHash} with PBKDF2-HMAC-SHA-512,
 * 210,000 iterations (OWASP Password Storage Cheat Sheet, 2023: PBKDF2-HMAC-SHA512, 210,000), a
 * 32-byte salt and a 32-byte key. A stored hash carries its own parameters
 * ({@code PBKDF2WithHmacSHA512:<iterations>:<salt>:<hash>}, base64), so raising the iterations keeps
 * old hashes valid.
 */
public final class PasswordHashing {

    /** Iterations for new hashes (OWASP's advice for PBKDF2-HMAC-SHA512). */
    public static final int ITERATIONS = 210_000;
    /** The algorithm every stored hash of this cell starts with. */
    public static final String ALGORITHM = "PBKDF2WithHmacSHA512";

    private PasswordHashing() {
    }

    /** The parameters for {@code Pbkdf2PasswordHash.initialize}, with {@code iterations} (tests use fewer). */
    public static Map<String, String> parameters(int iterations) {
        return Map.of(
                "Pbkdf2PasswordHash.Algorithm", ALGORITHM,
                "Pbkdf2PasswordHash.Iterations", Integer.toString(iterations),
                "Pbkdf2PasswordHash.SaltSizeBytes", "32",
                "Pbkdf2PasswordHash.KeySizeBytes", "32");
    }
}
