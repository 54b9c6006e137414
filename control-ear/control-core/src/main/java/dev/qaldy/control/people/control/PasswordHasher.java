package dev.qaldy.control.people.control;

import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.security.enterprise.identitystore.Pbkdf2PasswordHash;
import java.util.Map;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * Hashes and checks passwords with Jakarta Security's PBKDF2 (HMAC-SHA-512, 32-byte salt);
 * the stored string carries its own parameters, so raising {@code qaldy.passwords.iterations}
 * later keeps old hashes valid.
 */
@ApplicationScoped
public class PasswordHasher {

    @Inject
    Pbkdf2PasswordHash pbkdf2;

    @Inject
    @ConfigProperty(name = "qaldy.passwords.iterations", defaultValue = "210000")
    int iterations;

    /** A hash of a random password, checked against for unknown emails so they cost the same time. */
    private String decoy;

    @PostConstruct
    void initialize() {
        pbkdf2.initialize(Map.of(
                "Pbkdf2PasswordHash.Algorithm", "PBKDF2WithHmacSHA512",
                "Pbkdf2PasswordHash.Iterations", Integer.toString(iterations),
                "Pbkdf2PasswordHash.SaltSizeBytes", "32",
                "Pbkdf2PasswordHash.KeySizeBytes", "32"));
        decoy = pbkdf2.generate("decoy-password-never-used".toCharArray());
    }

    /** The storable hash of {@code password}. */
    public String hash(String password) {
        return pbkdf2.generate(password.toCharArray());
    }

    /** Whether {@code password} matches {@code storedHash}. */
    public boolean verify(String password, String storedHash) {
        return pbkdf2.verify(password.toCharArray(), storedHash);
    }

    /** Spends the time of one verification and answers {@code false}: for emails without an account. */
    public boolean verifyNothing(String password) {
        pbkdf2.verify(password.toCharArray(), decoy);
        return false;
    }
}
