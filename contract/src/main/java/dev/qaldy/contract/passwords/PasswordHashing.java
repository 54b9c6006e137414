package dev.qaldy.contract.passwords;

import java.util.Map;

/**
 * The cell's password hash: Jakarta Security's {@code Pbkdf2PasswordHash}, PBKDF2-HMAC-SHA-512,
 * {@value #ITERATIONS} iterations (OWASP Password Storage Cheat Sheet, 2023), 32-byte salt and key.
 * A stored hash carries its parameters ({@code PBKDF2WithHmacSHA512:<iterations>:<salt>:<hash>}), so
 * raising the iterations keeps old hashes valid.
 */
public final class PasswordHashing {

    public static final int ITERATIONS = 210_000;
    public static final String ALGORITHM = "PBKDF2WithHmacSHA512";

    private PasswordHashing() {
    }

    /** For {@code Pbkdf2PasswordHash.initialize}; tests use fewer iterations. */
    public static Map<String, String> parameters(int iterations) {
        return Map.of(
                "Pbkdf2PasswordHash.Algorithm", ALGORITHM,
                "Pbkdf2PasswordHash.Iterations", Integer.toString(iterations),
                "Pbkdf2PasswordHash.SaltSizeBytes", "32",
                "Pbkdf2PasswordHash.KeySizeBytes", "32");
    }
}
