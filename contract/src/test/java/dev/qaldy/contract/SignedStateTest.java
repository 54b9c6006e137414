package dev.qaldy.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.qaldy.contract.keys.CellKeys;
import dev.qaldy.contract.seal.BundleSeal;
import dev.qaldy.contract.seal.BundleSeals;
import dev.qaldy.contract.session.InvalidTokenException;
import dev.qaldy.contract.session.Session;
import dev.qaldy.contract.session.SessionTokens;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.interfaces.ECPrivateKey;
import java.security.interfaces.ECPublicKey;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SignedStateTest {

    static final Instant NOW = Instant.parse("2026-11-29T12:00:00Z");
    final KeyPair cell = CellKeys.generate();
    final KeyPair other = CellKeys.generate();
    final Clock clock = Clock.fixed(NOW, ZoneOffset.UTC);
    final Session ana = new Session(7, "ana@example.com", "t-1", NOW, NOW.plusSeconds(3600));

    @Test
    void a_token_signed_by_the_cell_verifies_and_carries_the_person() throws Exception {
        String token = SessionTokens.sign(ana, CellKeys.signing(cell));
        assertThat(SessionTokens.verify(token, CellKeys.published(cell), clock)).isEqualTo(ana);
    }

    @Test
    void a_session_made_on_an_app_origin_carries_its_audience_and_opens_that_app_only() throws Exception {
        Session onGuestbook = new Session(7, "ana@example.com", "t-2", NOW, NOW.plusSeconds(3600), SessionTokens.appAudience("guestbook"));
        Session verified = SessionTokens.verify(SessionTokens.sign(onGuestbook, CellKeys.signing(cell)),
                CellKeys.published(cell), clock);
        assertThat(verified).isEqualTo(onGuestbook);
        assertThat(verified.opens("guestbook")).isTrue();
        assertThat(verified.opens("guestbook2")).isFalse();
        assertThat(ana.audience()).isNull();
        assertThat(ana.opens("guestbook")).as("the person's API session opens any app (access decides)").isTrue();
    }

    @Test
    void a_token_signed_by_another_key_is_refused() {
        String token = SessionTokens.sign(ana, CellKeys.signing(other));
        assertThatThrownBy(() -> SessionTokens.verify(token, CellKeys.published(cell), clock))
                .isInstanceOf(InvalidTokenException.class);
    }

    @Test
    void an_altered_token_is_refused() {
        String token = SessionTokens.sign(ana, CellKeys.signing(cell));
        String[] parts = token.split("\\.");
        String forged = parts[0] + "." + parts[1].substring(0, parts[1].length() - 2) + "AA." + parts[2];
        assertThatThrownBy(() -> SessionTokens.verify(forged, CellKeys.published(cell), clock))
                .isInstanceOf(InvalidTokenException.class);
    }

    @Test
    void an_expired_token_is_refused() {
        String token = SessionTokens.sign(ana, CellKeys.signing(cell));
        Clock later = Clock.fixed(NOW.plusSeconds(3600), ZoneOffset.UTC);
        assertThatThrownBy(() -> SessionTokens.verify(token, CellKeys.published(cell), later))
                .isInstanceOf(InvalidTokenException.class).hasMessageContaining("expired");
    }

    @Test
    void a_token_issued_later_than_the_clock_skew_allows_is_refused() throws Exception {
        Session soon = new Session(7, "ana@example.com", "t-3", NOW.plus(SessionTokens.MAX_CLOCK_SKEW), NOW.plusSeconds(3600));
        assertThat(SessionTokens.verify(SessionTokens.sign(soon, CellKeys.signing(cell)), CellKeys.published(cell), clock))
                .as("within the skew").isEqualTo(soon);
        Session future = new Session(7, "ana@example.com", "t-4", NOW.plus(SessionTokens.MAX_CLOCK_SKEW).plusSeconds(1),
                NOW.plusSeconds(3600));
        String token = SessionTokens.sign(future, CellKeys.signing(cell));
        assertThatThrownBy(() -> SessionTokens.verify(token, CellKeys.published(cell), clock))
                .isInstanceOf(InvalidTokenException.class).hasMessageContaining("issued in the future");
    }

    @Test
    void a_seal_signed_by_the_cell_key_for_another_issuer_is_refused() throws Exception {
        com.nimbusds.jwt.SignedJWT jwt = new com.nimbusds.jwt.SignedJWT(
                new com.nimbusds.jose.JWSHeader.Builder(com.nimbusds.jose.JWSAlgorithm.ES256)
                        .type(new com.nimbusds.jose.JOSEObjectType("qaldy-seal+jwt")).build(),
                new com.nimbusds.jwt.JWTClaimsSet.Builder().issuer("someone-else").subject("guestbook").claim("version", 3L)
                        .claim("sha256", "ab".repeat(32)).issueTime(java.util.Date.from(NOW)).build());
        jwt.sign(new com.nimbusds.jose.crypto.ECDSASigner(CellKeys.signing(cell).key()));
        assertThatThrownBy(() -> BundleSeals.verify(jwt.serialize(), CellKeys.published(cell)))
                .isInstanceOf(InvalidTokenException.class).hasMessageContaining("issuer");
    }

    @Test
    void garbage_and_oversized_input_is_refused() {
        for (String bad : new String[] {"", "abc", "a.b.c", "x".repeat(SessionTokens.MAX_TOKEN_LENGTH + 1)}) {
            assertThatThrownBy(() -> SessionTokens.verify(bad, CellKeys.published(cell), clock))
                    .isInstanceOf(InvalidTokenException.class);
        }
    }

    @Test
    void a_seal_is_not_a_session_and_a_session_is_not_a_seal() {
        String seal = BundleSeals.sign(new BundleSeal("guestbook", 1, "a".repeat(64), NOW), CellKeys.signing(cell));
        String token = SessionTokens.sign(ana, CellKeys.signing(cell));
        assertThatThrownBy(() -> SessionTokens.verify(seal, CellKeys.published(cell), clock))
                .isInstanceOf(InvalidTokenException.class);
        assertThatThrownBy(() -> BundleSeals.verify(token, CellKeys.published(cell)))
                .isInstanceOf(InvalidTokenException.class);
    }

    @Test
    void a_seal_round_trips_and_refuses_another_key() throws Exception {
        BundleSeal seal = new BundleSeal("guestbook", 3, "0123456789abcdef".repeat(4), NOW);
        String jws = BundleSeals.sign(seal, CellKeys.signing(cell));
        assertThat(BundleSeals.verify(jws, CellKeys.published(cell))).isEqualTo(seal);
        assertThatThrownBy(() -> BundleSeals.verify(jws, CellKeys.published(other)))
                .isInstanceOf(InvalidTokenException.class);
    }

    @Test
    void keys_round_trip_through_pem_files(@TempDir Path dir) throws Exception {
        Path pub = Files.writeString(dir.resolve("cell.pub.pem"), CellKeys.toPem((ECPublicKey) cell.getPublic()));
        Path priv = Files.writeString(dir.resolve("cell.key.pem"), CellKeys.toPem((ECPrivateKey) cell.getPrivate()));
        String token = SessionTokens.sign(ana, CellKeys.readSigningKey(priv, CellKeys.readPublicKeys(pub)));
        assertThat(SessionTokens.verify(token, CellKeys.readPublicKeys(pub), clock).email()).isEqualTo("ana@example.com");
        assertThatThrownBy(() -> CellKeys.readPublicKeys(dir.resolve("missing.pem"))).isInstanceOf(IllegalStateException.class);
    }
}
