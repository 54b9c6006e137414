package dev.qaldy.contract.keys;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.Signature;
import java.security.interfaces.ECPrivateKey;
import java.security.interfaces.ECPublicKey;
import java.security.spec.ECGenParameterSpec;
import java.security.spec.PKCS8EncodedKeySpec;
import java.security.spec.X509EncodedKeySpec;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

/** Reads the cell's P-256 keys from PEM files ({@code var/keys/}); only the control plane holds the private key. */
public final class CellKeys {

    private CellKeys() {
    }

    /**
     * Reads every "PUBLIC KEY" block of an X.509 SPKI PEM file, in published order.
     *
     * @throws IllegalStateException when the file is missing, holds no key or more than
     *                               {@link CellPublicKeys#MAX}, or a block is not a P-256 public key
     */
    public static CellPublicKeys readPublicKeys(Path pem) {
        try {
            String text = Files.readString(pem, StandardCharsets.US_ASCII);
            List<ECPublicKey> keys = new ArrayList<>();
            String begin = "-----BEGIN PUBLIC KEY-----";
            for (int from = text.indexOf(begin); from >= 0; from = text.indexOf(begin, from + begin.length())) {
                byte[] der = decodePem(text.substring(from), "PUBLIC KEY");
                keys.add((ECPublicKey) KeyFactory.getInstance("EC").generatePublic(new X509EncodedKeySpec(der)));
            }
            return CellPublicKeys.of(keys);
        } catch (IOException | GeneralSecurityException | ClassCastException | IllegalArgumentException e) {
            throw new IllegalStateException("cannot read the cell's public keys from " + pem + ": " + e.getMessage(), e);
        }
    }

    /**
     * Reads the private key and names it by the published public key it pairs with.
     *
     * @throws IllegalStateException when the file cannot be read, or its public half is not published
     */
    public static CellSigningKey readSigningKey(Path privatePem, CellPublicKeys published) {
        ECPrivateKey key = readPrivateKey(privatePem);
        try {
            byte[] probe = "qaldy: which published key pairs with this private key".getBytes(StandardCharsets.US_ASCII);
            Signature signer = Signature.getInstance("SHA256withECDSA");
            signer.initSign(key);
            signer.update(probe);
            byte[] signature = signer.sign();
            for (ECPublicKey candidate : published.all()) {
                Signature verifier = Signature.getInstance("SHA256withECDSA");
                verifier.initVerify(candidate);
                verifier.update(probe);
                if (verifier.verify(signature)) {
                    return new CellSigningKey(key, CellPublicKeys.kid(candidate));
                }
            }
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("cannot use the cell's private key from " + privatePem + ": " + e.getMessage(), e);
        }
        throw new IllegalStateException("the cell's private key in " + privatePem + " is not published: its public key is"
                + " not among the cell's public keys (bin/qaldy keys add publishes a new key before it signs)");
    }

    /**
     * Reads an unencrypted PKCS#8 PEM "PRIVATE KEY" block.
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

    /** For tests and tools. */
    public static KeyPair generate() {
        try {
            KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
            generator.initialize(new ECGenParameterSpec("secp256r1"));
            return generator.generateKeyPair();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("this JVM cannot make P-256 keys", e);
        }
    }

    public static CellSigningKey signing(KeyPair pair) {
        return new CellSigningKey((ECPrivateKey) pair.getPrivate(), CellPublicKeys.kid((ECPublicKey) pair.getPublic()));
    }

    public static CellPublicKeys published(KeyPair pair) {
        return CellPublicKeys.of((ECPublicKey) pair.getPublic());
    }

    public static String toPem(ECPublicKey key) {
        return pem("PUBLIC KEY", key.getEncoded());
    }

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
