package dev.qaldy.gate.session;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.qaldy.contract.keys.CellKeys;
import dev.qaldy.contract.keys.CellPublicKeys;
import dev.qaldy.contract.session.InvalidTokenException;
import dev.qaldy.contract.session.Session;
import dev.qaldy.contract.session.SessionTokens;
import dev.qaldy.gate.access.MovableClock;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** The memory of verified tokens never accepts what a full verification would refuse. */
class VerifiedSessionsTest {

    private static final Instant T0 = Instant.parse("2026-03-01T10:00:00Z");

    private final MovableClock clock = new MovableClock(T0);
    private final KeyPair cell = keyPair();
    private final KeyPair other = keyPair();
    private final VerifiedSessions sessions = new VerifiedSessions(clock, 100);

    private String token(KeyPair keys, Duration life) {
        return SessionTokens.sign(new Session(7, "ana@example.com", "t-" + System.nanoTime(), T0, T0.plus(life)),
                CellKeys.signing(keys));
    }

    private CellPublicKeys pub(KeyPair keys) {
        return CellKeys.published(keys);
    }

    @Test
    void aVerifiedTokenIsRememberedUntilItsExpiryAndNotAMomentLonger() throws Exception {
        String token = token(cell, Duration.ofHours(1));
        assertThat(sessions.verify(token, pub(cell)).personId()).isEqualTo(7);
        assertThat(sessions.size()).isEqualTo(1);
        clock.set(T0.plus(Duration.ofMinutes(59)));
        assertThat(sessions.verify(token, pub(cell)).email()).isEqualTo("ana@example.com");
        clock.set(T0.plus(Duration.ofHours(1)));
        assertThatThrownBy(() -> sessions.verify(token, pub(cell))).isInstanceOf(InvalidTokenException.class);
    }

    @Test
    void aTokenVerifiedWithAnotherKeyIsVerifiedAgain() throws Exception {
        String token = token(cell, Duration.ofHours(1));
        sessions.verify(token, pub(cell));
        assertThatThrownBy(() -> sessions.verify(token, pub(other))).isInstanceOf(InvalidTokenException.class);
    }

    @Test
    void forgedAndAlteredTokensAreRefusedEveryTimeAndNeverRemembered() {
        String forged = token(other, Duration.ofHours(1));
        for (int i = 0; i < 3; i++) {
            assertThatThrownBy(() -> sessions.verify(forged, pub(cell))).isInstanceOf(InvalidTokenException.class);
        }
        String good = token(cell, Duration.ofHours(1));
        String altered = good.substring(0, good.length() - 4) + (good.endsWith("AAAA") ? "BBBB" : "AAAA");
        assertThatThrownBy(() -> sessions.verify(altered, pub(cell))).isInstanceOf(InvalidTokenException.class);
        assertThatThrownBy(() -> sessions.verify(null, pub(cell))).isInstanceOf(InvalidTokenException.class);
        assertThat(sessions.size()).isZero();
    }

    @Test
    void theMemoryIsBounded() throws Exception {
        VerifiedSessions few = new VerifiedSessions(clock, 5);
        for (int i = 0; i < 30; i++) {
            few.verify(token(cell, Duration.ofHours(1)), pub(cell));
        }
        few.verify(token(cell, Duration.ofHours(1)), pub(cell)); // runs the pending maintenance
        assertThat(few.size()).isLessThanOrEqualTo(5);
    }

    @Test
    void theReaderUsesItForBearerTokens() {
        String token = token(cell, Duration.ofHours(1));
        SessionReader reader = new SessionReader(pub(cell), clock, sessions);
        assertThat(reader.read("Bearer " + token, java.util.List.of())).isInstanceOf(SessionCheck.Valid.class);
        assertThat(reader.read("Bearer " + token, java.util.List.of())).isInstanceOf(SessionCheck.Valid.class);
        clock.set(T0.plus(Duration.ofHours(2)));
        assertThat(reader.read("Bearer " + token, java.util.List.of())).isInstanceOf(SessionCheck.Invalid.class);
    }

    @Test
    void aTokenAlreadyRememberedIsRefusedOnceSignedOut() {
        String token = token(cell, Duration.ofHours(1));
        SignedOutSessions signedOut = new SignedOutSessions(clock, 100);
        SessionReader reader = new SessionReader(pub(cell), clock, sessions, signedOut);
        SessionCheck before = reader.read("Bearer " + token, java.util.List.of());
        assertThat(before).isInstanceOf(SessionCheck.Valid.class);
        assertThat(sessions.size()).isEqualTo(1);
        Session session = ((SessionCheck.Valid) before).session();

        signedOut.add(session.tokenId(), session.expiresAt());

        SessionCheck bearer = reader.read("Bearer " + token, java.util.List.of());
        assertThat(bearer).isInstanceOf(SessionCheck.Invalid.class);
        assertThat(((SessionCheck.Invalid) bearer).reason()).contains("signed out");
        assertThat(reader.read(null, java.util.List.of(SessionCookie.NAME + "=" + token)))
                .as("the same token as the cookie").isInstanceOf(SessionCheck.Invalid.class);
        assertThat(new SessionReader(pub(cell), clock, null, signedOut).read("Bearer " + token, java.util.List.of()))
                .as("verified in full").isInstanceOf(SessionCheck.Invalid.class);
        String other = token(cell, Duration.ofHours(1));
        assertThat(reader.read("Bearer " + other, java.util.List.of())).as("another session of the same person")
                .isInstanceOf(SessionCheck.Valid.class);
    }

    private static KeyPair keyPair() {
        try {
            KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
            generator.initialize(new ECGenParameterSpec("secp256r1"));
            return generator.generateKeyPair();
        } catch (java.security.GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }
}
