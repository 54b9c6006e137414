package dev.qaldy.contract.hooks;

import static org.assertj.core.api.Assertions.assertThat;

import dev.qaldy.contract.hooks.HookSignature.Verdict;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The timestamped HMAC-SHA256 signature rule of webhooks (Stripe's scheme). */
class HookSignatureTest {

    static final String SECRET = "It's a Secret to Everybody";
    static final byte[] BODY = "Hello, World!".getBytes(StandardCharsets.UTF_8);
    static final long T = 1_700_000_000L;
    static final Instant AT_T = Instant.ofEpochSecond(T);
    static final Duration FIVE_MINUTES = Duration.ofMinutes(5);
    /** printf '%s' '1700000000.Hello, World!' | openssl dgst -sha256 -hmac "It's a Secret to Everybody" */
    static final String OPENSSL_V1 = "76c83fd0acdf22faed320674fe8e04d528cfe8a17905e720a9611e40677c03b7";

    @Test
    void the_signature_is_the_hmac_of_timestamp_dot_body_as_openssl_computes_it() {
        assertThat(HookSignature.sign(SECRET, T, BODY)).isEqualTo("t=" + T + ",v1=" + OPENSSL_V1);
        assertThat(HookSignature.check(SECRET, BODY, "t=" + T + ",v1=" + OPENSSL_V1, AT_T, FIVE_MINUTES)).isEqualTo(Verdict.VALID);
        assertThat(HookSignature.check(SECRET, BODY, " t=" + T + " , v1=" + OPENSSL_V1.toUpperCase() + " ", AT_T, FIVE_MINUTES))
                .isEqualTo(Verdict.VALID);
    }

    @ParameterizedTest
    @CsvSource({
        "0, VALID",
        "300, VALID",
        "-300, VALID",
        "301, TOO_OLD",
        "86400, TOO_OLD",
        "-301, IN_FUTURE"})
    void the_timestamp_must_be_within_the_tolerance_either_way(long receivedSecondsLater, Verdict verdict) {
        String header = HookSignature.sign(SECRET, T, BODY);
        assertThat(HookSignature.check(SECRET, BODY, header, AT_T.plusSeconds(receivedSecondsLater), FIVE_MINUTES)).isEqualTo(verdict);
    }

    @Test
    void a_replayed_header_with_a_new_timestamp_does_not_match() {
        String recorded = HookSignature.sign(SECRET, T, BODY);
        String moved = recorded.replace("t=" + T, "t=" + (T + 3600));
        assertThat(HookSignature.check(SECRET, BODY, moved, AT_T.plusSeconds(3600), FIVE_MINUTES)).isEqualTo(Verdict.WRONG);
    }

    @Test
    void one_of_several_v1_values_is_enough_while_a_secret_is_rotated() {
        String old = HookSignature.sign("the old secret", T, BODY).substring(("t=" + T + ",").length());
        String current = HookSignature.sign(SECRET, T, BODY);
        assertThat(HookSignature.check(SECRET, BODY, current + "," + old, AT_T, FIVE_MINUTES)).isEqualTo(Verdict.VALID);
        assertThat(HookSignature.check(SECRET, BODY, "t=" + T + "," + old + ",v0=ignored", AT_T, FIVE_MINUTES)).isEqualTo(Verdict.WRONG);
    }

    @ParameterizedTest
    @CsvSource(nullValues = "null", value = {
        "null, MISSING",
        "'', MISSING",
        "sha256=76c83fd0acdf22faed320674fe8e04d528cfe8a17905e720a9611e40677c03b7, MALFORMED",
        "v1=76c83fd0acdf22faed320674fe8e04d528cfe8a17905e720a9611e40677c03b7, MALFORMED",
        "'t=1700000000', MALFORMED",
        "'t=1700000000;v1=76c83fd0acdf22faed320674fe8e04d528cfe8a17905e720a9611e40677c03b7', MALFORMED",
        "'t=-1700000000;v1=76c83fd0acdf22faed320674fe8e04d528cfe8a17905e720a9611e40677c03b7', MALFORMED",
        "'t=1700000000,t=1700000000,v1=76c83fd0acdf22faed320674fe8e04d528cfe8a17905e720a9611e40677c03b7', MALFORMED",
        "'t=1700000000,v1=76c83fd0acdf22faed320674fe8e04d528cfe8a17905e720a9611e40677c03b', MALFORMED",
        "'t=1700000000,v1=zzc83fd0acdf22faed320674fe8e04d528cfe8a17905e720a9611e40677c03b7', MALFORMED",
        "'t=1700000000,v1=76c83fd0acdf22faed320674fe8e04d528cfe8a17905e720a9611e40677c03b8', WRONG"})
    void anything_else_is_refused(String header, Verdict verdict) {
        assertThat(HookSignature.check(SECRET, BODY, header, AT_T, FIVE_MINUTES)).isEqualTo(verdict);
    }

    @Test
    void headers_are_bounded() {
        String v1 = ",v1=" + OPENSSL_V1;
        assertThat(HookSignature.check(SECRET, BODY, "t=" + T + v1.repeat(8), AT_T, FIVE_MINUTES)).isEqualTo(Verdict.VALID);
        assertThat(HookSignature.check(SECRET, BODY, "t=" + T + v1.repeat(9), AT_T, FIVE_MINUTES)).isEqualTo(Verdict.MALFORMED);
        assertThat(HookSignature.check(SECRET, BODY, "t=" + T + v1 + ",x=" + "a".repeat(2000), AT_T, FIVE_MINUTES))
                .isEqualTo(Verdict.MALFORMED);
    }

    @Test
    void another_secret_or_body_does_not_match() {
        String signature = HookSignature.sign(SECRET, T, BODY);
        assertThat(HookSignature.check("another secret", BODY, signature, AT_T, FIVE_MINUTES)).isEqualTo(Verdict.WRONG);
        assertThat(HookSignature.check(SECRET, "Hello, World?".getBytes(StandardCharsets.UTF_8), signature, AT_T, FIVE_MINUTES))
                .isEqualTo(Verdict.WRONG);
    }

    @Test
    void new_secrets_are_long_and_different() {
        assertThat(HookSignature.newSecret()).hasSize(43).isNotEqualTo(HookSignature.newSecret());
    }

    @Test
    void any_secret_in_force_may_have_signed_it() {
        String byOld = HookSignature.sign("the old secret", T, BODY);
        assertThat(HookSignature.check(List.of(SECRET, "the old secret"), BODY, byOld, AT_T, FIVE_MINUTES)).isEqualTo(Verdict.VALID);
        assertThat(HookSignature.check(List.of(SECRET), BODY, byOld, AT_T, FIVE_MINUTES)).isEqualTo(Verdict.WRONG);
        assertThat(HookSignature.check(List.<String>of(), BODY, byOld, AT_T, FIVE_MINUTES)).isEqualTo(Verdict.MALFORMED);
    }

    @Test
    void signed_by_checks_form_and_digest_but_not_the_clock() {
        String header = HookSignature.sign(SECRET, T, BODY);
        assertThat(HookSignature.signedBy(List.of(SECRET), BODY, header)).isEqualTo(Verdict.VALID);
        assertThat(HookSignature.check(SECRET, BODY, header, AT_T.plusSeconds(86_400), FIVE_MINUTES)).isEqualTo(Verdict.TOO_OLD);
        assertThat(HookSignature.signedBy(List.of("another secret"), BODY, header)).isEqualTo(Verdict.WRONG);
        assertThat(HookSignature.signedBy(List.of(SECRET), BODY, "t=1")).isEqualTo(Verdict.MALFORMED);
        assertThat(HookSignature.signedBy(List.of(SECRET), BODY, null)).isEqualTo(Verdict.MISSING);
    }
}
