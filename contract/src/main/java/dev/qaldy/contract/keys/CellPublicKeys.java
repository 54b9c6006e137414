package dev.qaldy.contract.keys;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.jwk.Curve;
import com.nimbusds.jose.jwk.ECKey;
import java.security.interfaces.ECPublicKey;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The cell's published verification keys: one to {@link #MAX} P-256 public keys, each named by its
 * RFC 7638 JWK thumbprint, the {@code kid} the control plane writes in every JWS it signs
 * (sessions, bundle seals, cap states, live records). More than one only while the cell's key is
 * rotated (README, "Rotating the cell's key"): a new key is published before it signs, and an old
 * one stays until nothing signed with it is in use. Immutable.
 */
public final class CellPublicKeys {

    /** Most keys a cell publishes at once; a file with more is refused. */
    public static final int MAX = 4;

    private final Map<String, ECPublicKey> byKid;

    private CellPublicKeys(Map<String, ECPublicKey> byKid) {
        this.byKid = Collections.unmodifiableMap(byKid);
    }

    /**
     * The keys in the order given (the first is the one the cell published first).
     *
     * @throws IllegalArgumentException for no key, more than {@link #MAX}, or a key twice
     */
    public static CellPublicKeys of(List<ECPublicKey> keys) {
        if (keys.isEmpty() || keys.size() > MAX) {
            throw new IllegalArgumentException("a cell publishes 1 to " + MAX + " keys, not " + keys.size());
        }
        Map<String, ECPublicKey> byKid = new LinkedHashMap<>();
        for (ECPublicKey key : keys) {
            if (byKid.put(kid(key), key) != null) {
                throw new IllegalArgumentException("the same key is published twice");
            }
        }
        return new CellPublicKeys(byKid);
    }

    /** One key (a cell that never rotated, and tests). */
    public static CellPublicKeys of(ECPublicKey key) {
        return of(List.of(key));
    }

    /** The key named {@code kid}, or null when the cell does not publish it. */
    public ECPublicKey byKid(String kid) {
        return kid == null ? null : byKid.get(kid);
    }

    /** Every published key, in the order published. */
    public Collection<ECPublicKey> all() {
        return byKid.values();
    }

    /** The kids, in the order published. */
    public List<String> kids() {
        return List.copyOf(byKid.keySet());
    }

    /** A key's {@code kid}: its RFC 7638 JWK thumbprint (SHA-256, base64url, 43 characters). */
    public static String kid(ECPublicKey key) {
        try {
            return new ECKey.Builder(Curve.P_256, key).build().computeThumbprint().toString();
        } catch (JOSEException | IllegalArgumentException e) {
            throw new IllegalArgumentException("not a P-256 public key: " + e.getMessage(), e);
        }
    }
}
