package dev.qaldy.contract.keys;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.interfaces.ECPrivateKey;
import java.security.interfaces.ECPublicKey;
import java.security.spec.ECGenParameterSpec;
import java.security.spec.PKCS8EncodedKeySpec;
import java.security.spec.X509EncodedKeySpec;
import java.util.Base64;

/**
 * Reads the cell's P-256 key pair from PEM files ({@code bin/qaldy up} creates them under
 * {@code var/keys/}, never in git). The control plane holds the private key; the gate and the
 * runtime host hold only the public one.
 */
public final class CellKeys {

    private CellKeys() {
    }

    /**
     * Reads a public key in X.509 SubjectPublicKeyInfo PEM (the "PUBLIC KEY" block).
     *
     * @throws IllegalStateException when the file is missing or is not a P-256 public key
     */
    public static ECPublicKey readPublicKey(Path pem) {
        try {
            byte[] der = decodePem(Files.readString(pem, StandardCharsets.US_ASCII), "PUBLIC KEY");
            return (ECPublicKey) KeyFactory.getInstance("EC").generatePublic(new X509EncodedKeySpec(der));
        } catch (IOException | GeneralSecurityException | ClassCastException | IllegalArgumentException e) {
            throw new IllegalStateException("cannot read the cell's public key from " + pem + ": " + e.getMessage(), e);
        }
    }

    /**
     * Reads a private key in PKCS#8 PEM (the unencrypted "PRIVATE KEY" block).
     *
     * @throws IllegalStateException when the file is missing or is not a P-256 private key
     */
    public static ECPrivateKey readPrivateKey(Path pem) {
        try {
            byte[] der = decodePem(Files.readString(pem, StandardCharsets.US_ASCII), "PRIVATE KEY");
            return (ECPrivateKey) KeyFactory.getInstance("EC").generatePrivate(new PKCS8EncodedKeySpec(der));
        } catch (IOException | GeneralSecurityException | ClassCastException | IllegalArgumentException e) {
            throw new IllegalStateException("cannot read the cell's private key from " + pem + ": " + e.getMessage(), e);
        }
    }

    /** A fresh P-256 key pair; used by tests and tools, never written by this class. */
    public static KeyPair generate() {
        try {
            KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
            generator.initialize(new ECGenParameterSpec("secp256r1"));
            return generator.generateKeyPair();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("this JVM cannot make P-256 keys", e);
        }
    }

    /** PEM text for a public key, as {@link #readPublicKey} reads it. */
    public static String toPem(ECPublicKey key) {
        return pem("PUBLIC KEY", key.getEncoded());
    }

    /** PEM text for a private key, as {@link #readPrivateKey} reads it. */
    public static String toPem(ECPrivateKey key) {
        return pem("PRIVATE KEY", key.getEncoded());
    }

    private static String pem(String label, byte[] der) {
        return "-----BEGIN " + label + "-----\n"
                + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII)).encodeToString(der)
                + "\n-----END " + label + "-----\n";
    }

    private static byte[] decodePem(String text, String label) {
        String begin = "-----BEGIN " + label + "-----";
        String end = "-----END " + label + "-----";
        int from = text.indexOf(begin);
        int to = text.indexOf(end);
        if (from < 0 || to < from) {
            throw new IllegalArgumentException("no " + label + " block");
        }
        return Base64.getMimeDecoder().decode(text.substring(from + begin.length(), to));
    }
}
