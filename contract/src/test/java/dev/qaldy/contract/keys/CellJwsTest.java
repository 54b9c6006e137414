package dev.qaldy.contract.keys;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.ECDSASigner;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import dev.qaldy.contract.session.InvalidTokenException;
import dev.qaldy.contract.session.Session;
import dev.qaldy.contract.session.SessionTokens;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.interfaces.ECPrivateKey;
import java.security.interfaces.ECPublicKey;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Date;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The cell's key ring and kid (issue 16 item 9): a rotation publishes a key before it signs, and keeps the old one. */
class CellJwsTest {

    static final Instant NOW = Instant.parse("2026-12-04T06:00:00Z");
    final Clock clock = Clock.fixed(NOW, ZoneOffset.UTC);
    final KeyPair old = CellKeys.generate();
    final KeyPair next = CellKeys.generate();
    final Session ana = new Session(7, "ana@example.com", "jti-1", NOW, NOW.plus(Duration.ofHours(1)), null);

    @Test
    void every_jws_names_its_key_by_the_rfc_7638_thumbprint() throws Exception {
        String token = SessionTokens.sign(ana, CellKeys.signing(old));
        String kid = SignedJWT.parse(token).getHeader().getKeyID();
        assertThat(kid).hasSize(43).isEqualTo(CellPublicKeys.kid((ECPublicKey) old.getPublic()))
                .isNotEqualTo(CellPublicKeys.kid((ECPublicKey) next.getPublic()));
    }

    @Test
    void during_a_rotation_both_keys_verify_and_a_key_the_cell_does_not_publish_is_refused() throws Exception {
        CellPublicKeys ring = CellPublicKeys.of(List.of((ECPublicKey) old.getPublic(), (ECPublicKey) next.getPublic()));
        assertThat(SessionTokens.verify(SessionTokens.sign(ana, CellKeys.signing(old)), ring, clock)).isEqualTo(ana);
        assertThat(SessionTokens.verify(SessionTokens.sign(ana, CellKeys.signing(next)), ring, clock)).isEqualTo(ana);
        assertThatThrownBy(() -> SessionTokens.verify(SessionTokens.sign(ana, CellKeys.signing(next)), CellKeys.published(old), clock))
                .isInstanceOf(InvalidTokenException.class).hasMessageContaining("does not publish");
        // a kid that names the old key on a JWS the next key signed: the named key decides, and it fails
        CellSigningKey lying = new CellSigningKey((ECPrivateKey) next.getPrivate(), CellPublicKeys.kid((ECPublicKey) old.getPublic()));
        assertThatThrownBy(() -> SessionTokens.verify(SessionTokens.sign(ana, lying), ring, clock))
                .isInstanceOf(InvalidTokenException.class).hasMessageContaining("bad session token signature");
    }

    @Test
    void a_jws_signed_before_keys_had_names_is_checked_against_each_published_key() throws Exception {
        SignedJWT legacy = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.ES256).type(new JOSEObjectType("qaldy-session+jwt")).build(),
                new JWTClaimsSet.Builder().issuer(CellJws.ISSUER).subject("7").claim("email", "ana@example.com").jwtID("jti-1")
                        .issueTime(Date.from(NOW)).expirationTime(Date.from(NOW.plus(Duration.ofHours(1)))).build());
        legacy.sign(new ECDSASigner((ECPrivateKey) old.getPrivate()));
        CellPublicKeys ring = CellPublicKeys.of(List.of((ECPublicKey) next.getPublic(), (ECPublicKey) old.getPublic()));
        assertThat(SessionTokens.verify(legacy.serialize(), ring, clock).email()).isEqualTo("ana@example.com");
        assertThatThrownBy(() -> SessionTokens.verify(legacy.serialize(), CellKeys.published(next), clock))
                .isInstanceOf(InvalidTokenException.class).hasMessageContaining("signature");
    }

    @Test
    void the_published_file_holds_several_keys_and_a_private_key_signs_only_once_published(@TempDir Path dir) throws Exception {
        Path pub = Files.writeString(dir.resolve("cell.pub.pem"),
                CellKeys.toPem((ECPublicKey) old.getPublic()) + CellKeys.toPem((ECPublicKey) next.getPublic()));
        Path nextKey = Files.writeString(dir.resolve("cell.next.key.pem"), CellKeys.toPem((ECPrivateKey) next.getPrivate()));
        CellPublicKeys ring = CellKeys.readPublicKeys(pub);
        assertThat(ring.kids()).containsExactly(CellPublicKeys.kid((ECPublicKey) old.getPublic()),
                CellPublicKeys.kid((ECPublicKey) next.getPublic()));
        assertThat(CellKeys.readSigningKey(nextKey, ring).kid()).isEqualTo(CellPublicKeys.kid((ECPublicKey) next.getPublic()));
        assertThatThrownBy(() -> CellKeys.readSigningKey(nextKey, CellKeys.published(old)))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("is not published");
    }

    @Test
    void a_ring_is_one_to_four_distinct_keys() {
        ECPublicKey key = (ECPublicKey) old.getPublic();
        assertThatThrownBy(() -> CellPublicKeys.of(List.of())).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> CellPublicKeys.of(List.of(key, key))).isInstanceOf(IllegalArgumentException.class);
        List<ECPublicKey> five = List.of(key, (ECPublicKey) next.getPublic(), (ECPublicKey) CellKeys.generate().getPublic(),
                (ECPublicKey) CellKeys.generate().getPublic(), (ECPublicKey) CellKeys.generate().getPublic());
        assertThatThrownBy(() -> CellPublicKeys.of(five)).isInstanceOf(IllegalArgumentException.class);
    }
}
