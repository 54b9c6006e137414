package dev.qaldy.control.people.control;

import dev.qaldy.contract.passwords.PasswordHashing;
import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.security.enterprise.identitystore.Pbkdf2PasswordHash;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * Hashes and checks people's passwords with Jakarta Security's PBKDF2 as {@link PasswordHashing}
 * says; the stored string carries its own parameters, so raising {@code qaldy.passwords.iterations}
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
        pbkdf2.initialize(PasswordHashing.parameters(iterations));
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
