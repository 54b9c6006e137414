package dev.qaldy.contract.keys;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * A secret one component presents to another in {@code X-Qaldy-Service-Token}, one line of a file
 * under {@code var/keys/} (mode 600). One rule for every component (issue 16: they disagreed on
 * trimming and length): stripped, {@value #MIN_LENGTH} to {@value #MAX_LENGTH} characters, and a
 * presented value compared as a SHA-256 digest in constant time, so neither content nor length
 * leaks through timing.
 */
public final class ServiceCredential {

    public static final int MIN_LENGTH = 16;
    /** A longer presented value is refused before it is hashed. */
    public static final int MAX_LENGTH = 512;

    private final String secret;
    private final byte[] digest;

    private ServiceCredential(String secret) {
        this.secret = secret;
        this.digest = sha256(secret);
    }

    /** @throws IllegalStateException when the file cannot be read or its secret's length is out of bounds */
    public static ServiceCredential read(Path file) {
        String secret;
        try {
            secret = Files.readString(file, StandardCharsets.UTF_8).strip();
        } catch (IOException e) {
            throw new IllegalStateException("cannot read the service token file " + file + ": " + e, e);
        }
        return of(secret, file.toString());
    }

    /**
     * @param source named in errors only
     * @throws IllegalStateException when the stripped secret's length is out of bounds
     */
    public static ServiceCredential of(String secret, String source) {
        String stripped = secret == null ? "" : secret.strip();
        if (stripped.length() < MIN_LENGTH || stripped.length() > MAX_LENGTH) {
            throw new IllegalStateException("the service token in " + source + " must hold " + MIN_LENGTH + " to " + MAX_LENGTH
                    + " characters, not " + stripped.length() + "; bin/qaldy up creates one of 64");
        }
        return new ServiceCredential(stripped);
    }

    public String secret() {
        return secret;
    }

    /** Constant time; false for null, blank or too long. */
    public boolean matches(String presented) {
        if (presented == null) {
            return false;
        }
        String stripped = presented.strip();
        if (stripped.isEmpty() || stripped.length() > MAX_LENGTH) {
            return false;
        }
        return MessageDigest.isEqual(digest, sha256(stripped));
    }

    private static byte[] sha256(String text) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("this JVM has no SHA-256", e);
        }
    }

    @Override
    public String toString() {
        return "ServiceCredential[secret not shown]";
    }
}
