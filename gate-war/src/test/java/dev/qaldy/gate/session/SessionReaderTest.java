package dev.qaldy.gate.session;

import static org.assertj.core.api.Assertions.assertThat;

import dev.qaldy.contract.keys.CellKeys;
import dev.qaldy.contract.session.Session;
import dev.qaldy.contract.session.SessionTokens;
import java.nio.charset.StandardCharsets;
import java.security.KeyPair;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Sessions verified with real P-256 keys: the cell's, another cell's, and forged tokens. */
class SessionReaderTest {

    private static final KeyPair CELL = CellKeys.generate();
    private static final KeyPair OTHER = CellKeys.generate();
    private static final Instant NOW = Instant.parse("2025-06-01T12:00:00Z");

    private final Clock clock = Clock.fixed(NOW, ZoneOffset.UTC);
    private final SessionReader reader = new SessionReader(CellKeys.published(CELL), clock);
    private final Session ann = new Session(7, "ann@example.com", "jti-1", NOW.minusSeconds(60), NOW.plusSeconds(3600));

    private static String sign(Session session, KeyPair keys) {
        return SessionTokens.sign(session, CellKeys.signing(keys));
    }

    @Test
    void aSessionMadeOnAnAppsOriginOpensThatAppOnly() {
        Session onShop = new Session(7, "ann@example.com", "jti-2", NOW.minusSeconds(60), NOW.plusSeconds(3600),
                SessionTokens.appAudience("shop"));
        String cookie = "qaldy_session=" + sign(onShop, CELL);
        assertThat(reader.read(null, List.of(cookie), "shop")).isEqualTo(new SessionCheck.Valid(onShop));
        assertThat(reader.read(null, List.of(cookie), "blog")).isInstanceOf(SessionCheck.Invalid.class);
        assertThat(reader.read("Bearer " + sign(onShop, CELL), List.of(), "blog")).isInstanceOf(SessionCheck.Invalid.class);
        assertThat(reader.read(null, List.of(cookie))).as("nor the console's or the API's").isInstanceOf(SessionCheck.Invalid.class);
        assertThat(reader.read("Bearer " + sign(ann, CELL), List.of(), "blog")).as("the API session: any app")
                .isEqualTo(new SessionCheck.Valid(ann));
    }

    @Test
    void onAnAppsOriginAConsoleSessionCountsAsBearerOnlyNeverFromACookie() {
        // Issue 16: with a real base domain a sibling app can plant a cookie for the parent domain.
        String console = sign(ann, CELL);
        assertThat(reader.read(null, List.of("qaldy_session=" + console), "shop")).isInstanceOf(SessionCheck.Invalid.class);
        assertThat(reader.read(null, List.of("qaldy_session=" + console), "shop")).asString().contains("Bearer only");
        assertThat(reader.read("Bearer " + console, List.of(), "shop")).isEqualTo(new SessionCheck.Valid(ann));
        assertThat(reader.read(null, List.of("qaldy_session=" + console))).as("the console's own cookie")
                .isEqualTo(new SessionCheck.Valid(ann));
    }

    @Test
    void aValidCookieIsASession() {
        SessionCheck check = reader.read(null, List.of("theme=dark; qaldy_session=" + sign(ann, CELL) + "; lang=en"));
        assertThat(check).isEqualTo(new SessionCheck.Valid(ann));
    }

    @Test
    void aValidBearerTokenIsASession() {
        assertThat(reader.read("Bearer " + sign(ann, CELL), List.of())).isEqualTo(new SessionCheck.Valid(ann));
        assertThat(reader.read("bearer   " + sign(ann, CELL) + " ", null)).isEqualTo(new SessionCheck.Valid(ann));
    }

    @Test
    void noCredentialsIsMissing() {
        assertThat(reader.read(null, List.of())).isInstanceOf(SessionCheck.Missing.class);
        assertThat(reader.read(null, List.of("theme=dark"))).isInstanceOf(SessionCheck.Missing.class);
        assertThat(reader.read("Basic YTpi", List.of())).isInstanceOf(SessionCheck.Missing.class);
        assertThat(reader.read("Bearer ", List.of())).isInstanceOf(SessionCheck.Missing.class);
    }

    @Test
    void aTokenSignedByAnotherKeyIsInvalid() {
        String foreign = sign(ann, OTHER);
        assertThat(reader.read(null, List.of("qaldy_session=" + foreign))).isInstanceOf(SessionCheck.Invalid.class);
        assertThat(reader.read("Bearer " + foreign, List.of())).isInstanceOf(SessionCheck.Invalid.class);
    }

    @Test
    void aForgedTokenIsInvalid() {
        String[] parts = sign(ann, CELL).split("\\.");
        String claims = new String(Base64.getUrlDecoder().decode(parts[1]), StandardCharsets.UTF_8)
                .replace("\"sub\":\"7\"", "\"sub\":\"1\"");
        String forged = parts[0] + "." + Base64.getUrlEncoder().withoutPadding()
                .encodeToString(claims.getBytes(StandardCharsets.UTF_8)) + "." + parts[2];
        assertThat(claims).contains("\"sub\":\"1\"");
        assertThat(reader.read(null, List.of("qaldy_session=" + forged))).isInstanceOf(SessionCheck.Invalid.class);
    }

    @Test
    void anUnsignedTokenIsInvalid() {
        String[] parts = sign(ann, CELL).split("\\.");
        String none = Base64.getUrlEncoder().withoutPadding()
                .encodeToString("{\"alg\":\"none\",\"typ\":\"qaldy-session+jwt\"}".getBytes(StandardCharsets.UTF_8));
        assertThat(reader.read("Bearer " + none + "." + parts[1] + ".", List.of())).isInstanceOf(SessionCheck.Invalid.class);
    }

    @Test
    void expiredAndMalformedTokensAreInvalid() {
        Session expired = new Session(7, "ann@example.com", "jti-2", NOW.minusSeconds(7200), NOW.minusSeconds(1));
        assertThat(reader.read(null, List.of("qaldy_session=" + sign(expired, CELL)))).isInstanceOf(SessionCheck.Invalid.class);
        assertThat(reader.read(null, List.of("qaldy_session=not-a-token"))).isInstanceOf(SessionCheck.Invalid.class);
        assertThat(reader.read(null, List.of("qaldy_session="))).isInstanceOf(SessionCheck.Invalid.class);
        assertThat(reader.read(null, List.of("qaldy_session=" + "a".repeat(10_000)))).isInstanceOf(SessionCheck.Invalid.class);
    }

    @Test
    void aBadBearerTokenIsNotRescuedByAGoodCookie() {
        SessionCheck check = reader.read("Bearer " + sign(ann, OTHER), List.of("qaldy_session=" + sign(ann, CELL)));
        assertThat(check).isInstanceOf(SessionCheck.Invalid.class);
    }

    @Test
    void anyValidCookieAmongSeveralCounts() {
        SessionCheck check = reader.read(null, List.of("qaldy_session=junk", "qaldy_session=\"" + sign(ann, CELL) + "\""));
        assertThat(check).isEqualTo(new SessionCheck.Valid(ann));
    }
}
