package dev.qaldy.status.operators.control;

import dev.qaldy.contract.passwords.PasswordHashing;
import dev.qaldy.status.platform.OwnerOnly;
import dev.qaldy.status.platform.StatusSettings;
import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import jakarta.security.enterprise.identitystore.Pbkdf2PasswordHash;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.List;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The one operator account: user {@code qaldy.status.operator-user}, password from the first
 * line of {@code qaldy.status.operator-password-file} (a password, or a
 * {@code PBKDF2WithHmacSHA512:…} hash as {@link PasswordHash} makes it). A missing file gets a random password on first start, readable by the owner only, and
 * the log says where it is (never the password). Only a PBKDF2 hash is kept in memory.
 */
@ApplicationScoped
public class OperatorAccount {

    /** Characters of a generated password: 144 random bits in unpadded base64url. */
    static final int GENERATED_BYTES = 18;

    private static final SecureRandom RANDOM = new SecureRandom();

    @Inject
    StatusSettings settings;

    @Inject
    Logger log;

    @Inject
    Pbkdf2PasswordHash pbkdf2;

    private PasswordHash hasher;

    private volatile String user;
    private volatile String hash;

    /**
     * What reading the password file gave.
     *
     * @param hash      the password's hash, or {@code null} when sign-in is off (the file is unusable)
     * @param generated true when the file was missing and a new password was written to it
     * @param warning   something the operator should fix, or {@code null}
     */
    public record Loaded(String hash, boolean generated, String warning) {
    }

    void atStart(@Observes @Initialized(ApplicationScoped.class) Object started) {
        // created at start, so a missing password file is written (and logged) before anyone asks
    }

    @PostConstruct
    void load() {
        Path file = settings.operatorPasswordFile().toAbsolutePath().normalize();
        hasher = new PasswordHash(pbkdf2, PasswordHashing.ITERATIONS);
        Loaded loaded = load(file, hasher);
        user = settings.operatorUser();
        hash = loaded.hash();
        if (loaded.generated()) {
            log.log(Level.INFO, "status page: generated a password for the operator \"{0}\" in {1} (readable by this "
                    + "account only); sign in at /operator.html", new Object[] {user, file});
        } else if (hash != null) {
            log.log(Level.INFO, "status page: the operator \"{0}\" signs in with the password in {1}", new Object[] {user, file});
        }
        if (loaded.warning() != null) {
            log.log(Level.WARNING, "status page: {0}", loaded.warning());
        }
    }

    /**
     * Reads {@code file}, or creates it with a random password when it does not exist; hashes
     * with {@code hasher}.
     */
    public static Loaded load(Path file, PasswordHash hasher) {
        if (!Files.exists(file)) {
            String password = Base64.getUrlEncoder().withoutPadding().encodeToString(randomBytes());
            OwnerOnly.writeNew(file, password + "\n");
            return new Loaded(hasher.hash(password.toCharArray()), true, null);
        }
        List<String> lines;
        try {
            lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            return new Loaded(null, false, "cannot read the operator password file " + file + " (" + e
                    + "); operator sign-in is off until it can be read at the next start");
        }
        String first = lines.isEmpty() ? "" : lines.get(0).strip();
        if (first.isEmpty()) {
            return new Loaded(null, false, "the operator password file " + file
                    + " is empty; operator sign-in is off. Delete it to get a generated password at the next start");
        }
        String warning = OwnerOnly.readableByOthers(file)
                ? "the operator password file " + file + " can be read by others; make it owner-only (chmod 600)" : null;
        if (first.startsWith(PasswordHash.PREFIX)) {
            if (!PasswordHash.isEncoded(first)) {
                return new Loaded(null, false, "the operator password file " + file + " holds a malformed "
                        + PasswordHash.PREFIX + " hash; operator sign-in is off");
            }
            return new Loaded(first, false, warning);
        }
        return new Loaded(hasher.hash(first.toCharArray()), false, warning);
    }

    /** True when {@code name} and {@code password} are the operator's; always false while sign-in is off. */
    public boolean matches(String name, String password) {
        String expected = hash;
        if (expected == null || name == null || password == null) {
            return false;
        }
        char[] chars = password.toCharArray();
        try {
            boolean passwordOk = hasher.verify(chars, expected);
            return PasswordHash.sameText(name, user) & passwordOk;
        } finally {
            PasswordHash.clear(chars);
        }
    }

    private static byte[] randomBytes() {
        byte[] bytes = new byte[GENERATED_BYTES];
        RANDOM.nextBytes(bytes);
        return bytes;
    }
}
