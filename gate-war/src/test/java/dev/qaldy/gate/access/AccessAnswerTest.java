package dev.qaldy.gate.access;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.qaldy.gate.access.AccessAnswer.Kind;
import dev.qaldy.gate.platform.ControlPlaneUnavailable;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class AccessAnswerTest {

    @ParameterizedTest(name = "{0} {1} -> {2}")
    @CsvSource(value = {
        "200|{\"app\":\"guestbook\",\"personId\":7,\"decision\":\"allow\",\"sharingVersion\":3}|ALLOW|3",
        "200|{\"app\":\"guestbook\",\"personId\":7,\"decision\":\"deny\",\"sharingVersion\":4}|DENY|4",
        "404|{\"status\":404}|UNKNOWN_APP|-1",
        "404||UNKNOWN_APP|-1",
        // any other 4xx is the API speaking, but not an answer the gate can use
        "400|{}|UNUSABLE|-1",
        "401|{}|UNUSABLE|-1",
        "403|{}|UNUSABLE|-1",
        "409|{}|UNUSABLE|-1",
        "429|{}|UNUSABLE|-1",
        // a 2xx that cannot be read is not an allow
        "200||UNUSABLE|-1",
        "200|not json|UNUSABLE|-1",
        "200|[]|UNUSABLE|-1",
        "200|{\"decision\":\"allow\"}|UNUSABLE|-1",
        "200|{\"app\":\"other\",\"personId\":7,\"decision\":\"allow\",\"sharingVersion\":3}|UNUSABLE|-1",
        "200|{\"app\":\"guestbook\",\"personId\":8,\"decision\":\"allow\",\"sharingVersion\":3}|UNUSABLE|-1",
        "200|{\"app\":\"guestbook\",\"personId\":\"7\",\"decision\":\"allow\",\"sharingVersion\":3}|UNUSABLE|-1",
        "200|{\"app\":\"guestbook\",\"personId\":7,\"decision\":\"allow\"}|UNUSABLE|-1",
        "200|{\"app\":\"guestbook\",\"personId\":7,\"decision\":\"ALLOW\",\"sharingVersion\":3}|UNUSABLE|-1",
        "200|{\"app\":\"guestbook\",\"personId\":7,\"decision\":true,\"sharingVersion\":3}|UNUSABLE|-1",
        "200|{\"app\":\"guestbook\",\"personId\":7,\"decision\":\"maybe\",\"sharingVersion\":3}|UNUSABLE|-1",
        "200|{\"app\":\"guestbook\",\"personId\":7.5,\"decision\":\"allow\",\"sharingVersion\":3}|UNUSABLE|-1",
        "204||UNUSABLE|-1",
        "302||UNUSABLE|-1",
    }, delimiter = '|')
    void reads(int status, String body, Kind kind, long version) throws Exception {
        AccessAnswer answer = AccessAnswer.read(status, body, "guestbook", 7);
        assertThat(answer.kind()).isEqualTo(kind);
        assertThat(answer.sharingVersion()).isEqualTo(version);
    }

    @ParameterizedTest
    @ValueSource(ints = {500, 502, 503, 504, 599})
    void a5xxIsAFailureNotAnAnswer(int status) {
        assertThatThrownBy(() -> AccessAnswer.read(status, "{\"decision\":\"allow\"}", "guestbook", 7))
                .isInstanceOf(ControlPlaneUnavailable.class);
    }
}
