package dev.qaldy.runtime.bundles;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.qaldy.contract.keys.CellKeys;
import dev.qaldy.contract.keys.CellPublicKeys;
import dev.qaldy.contract.seal.BundleSeal;
import dev.qaldy.contract.seal.BundleSeals;
import dev.qaldy.runtime.bundles.control.BundleRefusedException;
import dev.qaldy.runtime.bundles.control.BundleVerifier;
import dev.qaldy.runtime.bundles.entity.BundleFile;
import dev.qaldy.runtime.bundles.entity.BundleKey;
import dev.qaldy.runtime.bundles.entity.LiveVersion;
import dev.qaldy.runtime.testing.TestBundles;
import java.security.KeyPair;
import java.util.Map;
import org.junit.jupiter.api.Test;

class BundleVerifierTest {

    static final KeyPair CELL = TestBundles.keys();
    static final KeyPair OTHER = TestBundles.keys();
    final byte[] zip = TestBundles.zip(Map.of("public/index.html", "<h1>hi</h1>", "server.js", "//"));
    final BundleKey key = new BundleKey("guestbook", 3);
    final CellPublicKeys cellKey = CellKeys.published(CELL);

    @Test
    void bytes_that_hash_to_the_sealed_sha_with_the_cells_seal_pass() {
        LiveVersion live = TestBundles.live("guestbook", 3, zip, CELL);
        BundleSeal seal = BundleVerifier.verify(key, live.sha256(), live.seal(), zip, cellKey);
        assertThat(seal.sha256()).isEqualTo(BundleFile.sha256Hex(zip));
    }

    @Test
    void a_single_flipped_byte_is_refused() {
        LiveVersion live = TestBundles.live("guestbook", 3, zip, CELL);
        byte[] tampered = zip.clone();
        tampered[tampered.length / 2] ^= 1;
        assertThatThrownBy(() -> BundleVerifier.verify(key, live.sha256(), live.seal(), tampered, cellKey))
                .isInstanceOf(BundleRefusedException.class).hasMessageContaining("SHA-256");
    }

    @Test
    void a_sha_the_seal_does_not_vouch_for_is_refused() {
        // The announced hash matches the bytes, but the seal is for different bytes.
        byte[] otherZip = TestBundles.zip(Map.of("public/index.html", "<h1>evil</h1>"));
        LiveVersion sealedForOther = TestBundles.live("guestbook", 3, otherZip, CELL);
        assertThatThrownBy(() -> BundleVerifier.verify(key, BundleFile.sha256Hex(zip), sealedForOther.seal(), zip, cellKey))
                .isInstanceOf(BundleRefusedException.class).hasMessageContaining("the seal is for");
    }

    @Test
    void a_seal_signed_by_another_key_is_refused() {
        LiveVersion forged = TestBundles.live("guestbook", 3, zip, OTHER);
        assertThatThrownBy(() -> BundleVerifier.verify(key, forged.sha256(), forged.seal(), zip, cellKey))
                .isInstanceOf(BundleRefusedException.class).hasMessageContaining("seal refused");
    }

    @Test
    void a_seal_for_another_app_or_version_is_refused() {
        LiveVersion otherApp = TestBundles.live("other", 3, zip, CELL);
        LiveVersion otherVersion = TestBundles.live("guestbook", 2, zip, CELL);
        assertThatThrownBy(() -> BundleVerifier.verify(key, otherApp.sha256(), otherApp.seal(), zip, cellKey))
                .isInstanceOf(BundleRefusedException.class);
        assertThatThrownBy(() -> BundleVerifier.verify(key, otherVersion.sha256(), otherVersion.seal(), zip, cellKey))
                .isInstanceOf(BundleRefusedException.class);
    }

    @Test
    void a_missing_or_garbled_seal_is_refused() {
        String sha = BundleFile.sha256Hex(zip);
        assertThatThrownBy(() -> BundleVerifier.verify(key, sha, "not.a.jws", zip, cellKey))
                .isInstanceOf(BundleRefusedException.class);
        assertThatThrownBy(() -> BundleVerifier.verify(key, sha, null, zip, cellKey))
                .isInstanceOf(BundleRefusedException.class);
        String seal = BundleSeals.sign(new BundleSeal("guestbook", 3, sha, TestBundles.NOW), CellKeys.signing(CELL));
        String[] parts = seal.split("\\.");
        String altered = parts[0] + "." + parts[1] + "." + new StringBuilder(parts[2]).reverse();
        assertThatThrownBy(() -> BundleVerifier.verify(key, sha, altered, zip, cellKey))
                .isInstanceOf(BundleRefusedException.class);
    }
}
