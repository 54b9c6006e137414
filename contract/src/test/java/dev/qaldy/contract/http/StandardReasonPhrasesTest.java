package dev.qaldy.contract.http;

import static org.assertj.core.api.Assertions.assertThat;

import org.glassfish.grizzly.http.HttpRequestPacket;
import org.glassfish.grizzly.http.HttpResponsePacket;
import org.glassfish.grizzly.http.util.HttpStatus;
import org.junit.jupiter.api.Test;

/** The standard reason phrases added to Grizzly's table, checked against Grizzly's own response packet. */
class StandardReasonPhrasesTest {

    static String phraseOf(int status) {
        HttpRequestPacket request = HttpRequestPacket.builder().method("GET").uri("/").protocol("HTTP/1.1").build();
        HttpResponsePacket response = HttpResponsePacket.builder(request).build();
        response.setStatus(status); // what Payara's servlet response does for setStatus(int)
        return response.getReasonPhrase();
    }

    @Test
    void grizzly_writes_custom_for_429_until_the_phrase_is_registered_and_known_codes_stay_as_they_are() throws Exception {
        assertThat(phraseOf(418)).as("a code nobody registers").isEqualTo(StandardReasonPhrases.GRIZZLY_UNKNOWN);
        String before429 = phraseOf(429);
        String before413 = phraseOf(413);
        String before503 = phraseOf(503);

        assertThat(StandardReasonPhrases.registerOnGrizzly(HttpStatus.class)).containsExactly(422, 425, 426, 428, 429, 451, 507, 508, 511)
                .as("every code it adds was CUSTOM before").isNotEmpty();
        assertThat(before429).isEqualTo("CUSTOM");
        assertThat(phraseOf(429)).isEqualTo("Too Many Requests");
        assertThat(phraseOf(451)).isEqualTo("Unavailable For Legal Reasons");
        assertThat(phraseOf(413)).isEqualTo(before413).isEqualTo("Request Entity Too Large");
        assertThat(phraseOf(503)).isEqualTo(before503).isEqualTo("Service Unavailable");
        assertThat(phraseOf(200)).isEqualTo("OK");
        assertThat(phraseOf(418)).isEqualTo(StandardReasonPhrases.GRIZZLY_UNKNOWN);

        assertThat(StandardReasonPhrases.registerOnGrizzly(HttpStatus.class)).as("a second start adds nothing").isEmpty();
    }
}
