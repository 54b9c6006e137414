package dev.qaldy.contract.live;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.ECDSASigner;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import dev.qaldy.contract.keys.CellKeys;
import dev.qaldy.contract.seal.BundleSeal;
import dev.qaldy.contract.seal.BundleSeals;
import dev.qaldy.contract.session.InvalidTokenException;
import java.security.KeyPair;
import java.security.interfaces.ECPrivateKey;
import java.time.Instant;
import java.util.Date;
import org.junit.jupiter.api.Test;

class LiveStatementsTest {

    static final Instant NOW = Instant.parse("2026-12-03T22:00:00.123Z");
    static final String SHA = "ab".repeat(32);
    final KeyPair cell = CellKeys.generate();

    String sign(LiveStatement statement, KeyPair keys) {
        return LiveStatements.sign(statement, CellKeys.signing(keys));
    }

    LiveStatement verify(String jws) throws InvalidTokenException {
        return LiveStatements.verify(jws, CellKeys.published(cell));
    }

    @Test
    void a_live_statement_and_a_tombstone_verify_as_signed() throws Exception {
        LiveStatement live = LiveStatement.live("guestbook", 2, SHA, 17, NOW);
        assertThat(verify(sign(live, cell))).isEqualTo(live);
        LiveStatement gone = LiveStatement.tombstone("guestbook", 18, NOW);
        assertThat(verify(sign(gone, cell))).isEqualTo(gone);
        assertThat(gone.gone()).isTrue();
        assertThat(verify(sign(LiveStatement.tombstone("fresh", 0, NOW), cell)).sequence()).isZero();
    }

    @Test
    void another_key_another_type_or_another_issuer_is_refused() {
        LiveStatement live = LiveStatement.live("guestbook", 2, SHA, 17, NOW);
        assertThatThrownBy(() -> verify(sign(live, CellKeys.generate()))).isInstanceOf(InvalidTokenException.class);
        String seal = BundleSeals.sign(new BundleSeal("guestbook", 2, SHA, NOW), CellKeys.signing(cell));
        assertThatThrownBy(() -> verify(seal)).isInstanceOf(InvalidTokenException.class).hasMessageContaining("not a live statement");
        assertThatThrownBy(() -> verify(signed(new JWTClaimsSet.Builder().issuer("someone-else").subject("guestbook")
                .claim("seq", 17L).claim("iatMs", NOW.toEpochMilli()).claim("version", 2L).claim("sha256", SHA)
                .issueTime(Date.from(NOW)).build()))).isInstanceOf(InvalidTokenException.class);
        assertThatThrownBy(() -> verify(null)).isInstanceOf(InvalidTokenException.class);
        assertThatThrownBy(() -> verify("x".repeat(5000))).isInstanceOf(InvalidTokenException.class);
    }

    @Test
    void a_statement_without_its_sequence_or_a_tombstone_naming_a_version_is_refused() {
        assertThatThrownBy(() -> verify(signed(new JWTClaimsSet.Builder().issuer("qaldy-cell").subject("guestbook")
                .claim("iatMs", NOW.toEpochMilli()).claim("version", 2L).claim("sha256", SHA)
                .issueTime(Date.from(NOW)).build()))).isInstanceOf(InvalidTokenException.class);
        assertThatThrownBy(() -> verify(signed(new JWTClaimsSet.Builder().issuer("qaldy-cell").subject("guestbook")
                .claim("seq", 3L).claim("iatMs", NOW.toEpochMilli()).claim("gone", true).claim("version", 2L)
                .issueTime(Date.from(NOW)).build()))).isInstanceOf(InvalidTokenException.class);
    }

    private String signed(JWTClaimsSet claims) throws Exception {
        SignedJWT jwt = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.ES256).type(LiveStatements.TYPE).build(), claims);
        jwt.sign(new ECDSASigner((ECPrivateKey) cell.getPrivate()));
        return jwt.serialize();
    }
}
