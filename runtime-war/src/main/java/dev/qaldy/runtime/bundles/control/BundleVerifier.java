package dev.qaldy.runtime.bundles.control;

import dev.qaldy.contract.keys.CellPublicKeys;
import dev.qaldy.contract.seal.BundleSeal;
import dev.qaldy.contract.seal.BundleSeals;
import dev.qaldy.contract.session.InvalidTokenException;
import dev.qaldy.runtime.bundles.entity.BundleFile;
import dev.qaldy.runtime.bundles.entity.BundleKey;

/**
 * Decides whether bundle bytes may run: they must hash to the expected SHA-256, and the seal must
 * be signed by this cell's key and name the same app, version and SHA-256. Any mismatch refuses
 * the bundle; there is no "close enough".
 */
public final class BundleVerifier {

    private BundleVerifier() {
    }

    /**
     * @param expected  the app and version the bytes were fetched for
     * @param sha256    the SHA-256 the control plane announced for them (lower-case hex)
     * @param sealJws   the seal that came with that announcement
     * @return the verified seal
     * @throws BundleRefusedException when anything does not match
     */
    public static BundleSeal verify(BundleKey expected, String sha256, String sealJws, byte[] zip, CellPublicKeys key) {
        String actual = BundleFile.sha256Hex(zip);
        if (!actual.equals(sha256)) {
            throw new BundleRefusedException("bundle of " + expected + ": SHA-256 " + actual
                    + " is not the announced " + sha256);
        }
        return verifySeal(expected, actual, sealJws, key);
    }

    /**
     * Checks a seal alone, e.g. a live record kept in the data-centre cache: it must be signed by
     * this cell's key and name exactly this app, version and SHA-256.
     *
     * @return the verified seal
     * @throws BundleRefusedException when anything does not match
     */
    public static BundleSeal verifySeal(BundleKey expected, String sha256, String sealJws, CellPublicKeys key) {
        BundleSeal seal;
        try {
            seal = BundleSeals.verify(sealJws, key);
        } catch (InvalidTokenException e) {
            throw new BundleRefusedException("bundle of " + expected + ": seal refused: " + e.getMessage(), e);
        }
        if (!seal.app().equals(expected.app()) || seal.version() != expected.version()
                || !seal.sha256().equals(sha256)) {
            throw new BundleRefusedException("bundle of " + expected + ": the seal is for " + seal.app() + " v"
                    + seal.version() + " with SHA-256 " + seal.sha256());
        }
        return seal;
    }
}
