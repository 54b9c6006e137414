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
 * The cell's published P-256 keys (one to {@link #MAX}), each named by its RFC 7638 JWK thumbprint,
 * the {@code kid} of every JWS the cell signs. More than one only while the key is rotated (README,
 * "Rotating the cell's key"). Immutable.
 */
public final class CellPublicKeys {

    public static final int MAX = 4;

    private final Map<String, ECPublicKey> byKid;

    private CellPublicKeys(Map<String, ECPublicKey> byKid) {
        this.byKid = Collections.unmodifiableMap(byKid);
    }

    /** @throws IllegalArgumentException for no key, more than {@link #MAX}, or a key twice */
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

    public static CellPublicKeys of(ECPublicKey key) {
        return of(List.of(key));
    }

    /** Null when the cell does not publish {@code kid}. */
    public ECPublicKey byKid(String kid) {
        return kid == null ? null : byKid.get(kid);
    }

    public Collection<ECPublicKey> all() {
        return byKid.values();
    }

    public List<String> kids() {
        return List.copyOf(byKid.keySet());
    }

    /** RFC 7638 JWK thumbprint (SHA-256, base64url, 43 characters). */
    public static String kid(ECPublicKey key) {
        try {
            return new ECKey.Builder(Curve.P_256, key).build().computeThumbprint().toString();
        } catch (JOSEException | IllegalArgumentException e) {
            throw new IllegalArgumentException("not a P-256 public key: " + e.getMessage(), e);
        }
    }
}
