package dev.qaldy.gate.access;

import static org.assertj.core.api.Assertions.assertThat;

import dev.qaldy.gate.access.AccessAnswer.Kind;
import dev.qaldy.gate.platform.ControlPlaneUnavailable;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The account an app's traffic counts against travels from the API's answer through the copy to the decision. */
class AccessAccountTest {

    static final long NOW = 1_000_000_000L;
    final AccessPolicy policy = new AccessPolicy(Duration.ofSeconds(30), Duration.ofMinutes(30));

    @Test
    void the_answer_names_the_account_or_none() throws Exception {
        String body = "{\"app\":\"guestbook\",\"personId\":7,\"decision\":\"allow\",\"sharingVersion\":3,\"accountId\":42}";
        assertThat(AccessAnswer.read(200, body, "guestbook", 7).accountId()).isEqualTo(42);
        for (String account : new String[] {"", ",\"accountId\":0", ",\"accountId\":-3", ",\"accountId\":1.5", ",\"accountId\":\"42\""}) {
            String other = "{\"app\":\"guestbook\",\"personId\":7,\"decision\":\"allow\",\"sharingVersion\":3" + account + "}";
            AccessAnswer answer = AccessAnswer.read(200, other, "guestbook", 7);
            assertThat(answer.kind()).as("still an answer").isEqualTo(Kind.ALLOW);
            assertThat(answer.accountId()).as(account).isEqualTo(AccessAnswer.NO_ACCOUNT);
        }
    }

    @Test
    void every_allow_carries_the_account_asked_fresh_or_from_the_outage_copy() {
        AccessAnswer allow = new AccessAnswer(Kind.ALLOW, 3, "allow", 42);
        AccessCopy copy = AccessCopy.of(allow, NOW);
        assertThat(copy.accountId()).isEqualTo(42);
        assertThat(policy.decide(new AccessOutcome.Answered(allow), null, NOW).accountId()).isEqualTo(42);
        assertThat(policy.withoutAsking(copy, NOW + 1000).orElseThrow().accountId()).isEqualTo(42);
        AccessDecision fromCopy = policy.decide(new AccessOutcome.Failed(new ControlPlaneUnavailable("down")), copy, NOW + 60_000);
        assertThat(fromCopy.source()).isEqualTo(AccessDecision.Source.OUTAGE_COPY);
        assertThat(fromCopy.accountId()).isEqualTo(42);
        assertThat(policy.decide(new AccessOutcome.Answered(new AccessAnswer(Kind.DENY, 3, "deny", 42)), null, NOW).allowed()).isFalse();
        assertThat(new AccessDecision(AccessDecision.Verdict.UNAVAILABLE, AccessDecision.Source.ASKED, "x").accountId())
                .isEqualTo(AccessAnswer.NO_ACCOUNT);
    }
}
