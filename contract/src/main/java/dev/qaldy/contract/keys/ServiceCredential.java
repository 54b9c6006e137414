package dev.qaldy.contract.keys;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * A secret one component of the cell presents to another in {@code X-Qaldy-Service-Token}, read
 * from one line of a file under {@code var/keys/} ({@code bin/qaldy} creates it, mode 600, never in
 * git). One rule for every component (issue 16: the gate, the control plane and the runtime host
 * each had their own, and they disagreed on trimming and length): the file's line is stripped of
 * surrounding whitespace and must hold {@value #MIN_LENGTH} to {@value #MAX_LENGTH} characters; a
 * presented value is stripped the same way and compared as a SHA-256 digest in constant time, so
 * neither its content nor its length leaks through timing.
 */
public final class ServiceCredential {

    /** Shortest secret accepted, characters. */
    public static final int MIN_LENGTH = 16;
    /** Longest secret accepted, characters; a longer presented value is refused before it is hashed. */
    public static final int MAX_LENGTH = 512;

    private final String secret;
    private final byte[] digest;

    private ServiceCredential(String secret) {
        this.secret = secret;
        this.digest = sha256(secret);
    }

    /**
     * Reads the secret from {@code file}.
     *
     * @throws IllegalStateException when the file cannot be read or its secret is shorter than
     *                               {@value #MIN_LENGTH} or longer than {@value #MAX_LENGTH} characters
     *                               (the message names the file and what is wrong; callers refuse every call meanwhile)
     */
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
     * The credential {@code secret} (stripped), from {@code source} (named in errors only).
     *
     * @throws IllegalStateException when it is shorter than {@value #MIN_LENGTH} or longer than {@value #MAX_LENGTH} characters
     */
    public static ServiceCredential of(String secret, String source) {
        String stripped = secret == null ? "" : secret.strip();
        if (stripped.length() < MIN_LENGTH || stripped.length() > MAX_LENGTH) {
            throw new IllegalStateException("the service token in " + source + " must hold " + MIN_LENGTH + " to " + MAX_LENGTH
                    + " characters, not " + stripped.length() + "; bin/qaldy up creates one of 64");
        }
        return new ServiceCredential(stripped);
    }

    /** The secret, to present to the component that accepts it. */
    public String secret() {
        return secret;
    }

    /** Whether {@code presented} (stripped; null, blank or too long: false) is this secret, in constant time. */
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
