package dev.qaldy.gate.access;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class SharingVersionPushTest {

    private static SharingVersionPush.Push read(String body) throws IOException {
        return SharingVersionPush.read(new ByteArrayInputStream(body.getBytes(StandardCharsets.UTF_8)));
    }

    @Test
    void readsAPush() throws IOException {
        assertThat(read("{\"app\":\"guestbook\",\"sharingVersion\":4}"))
                .isEqualTo(new SharingVersionPush.Push("guestbook", 4));
        assertThat(read(" {\"sharingVersion\":0, \"app\":\"a-1\", \"extra\":true} "))
                .isEqualTo(new SharingVersionPush.Push("a-1", 0));
        assertThat(read("{\"app\":\"guestbook\",\"sharingVersion\":4,\"sequence\":17}"))
                .isEqualTo(new SharingVersionPush.Push("guestbook", 4, 17));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "null", "[]", "{}", "not json", "{\"app\":\"guestbook\"}",
        "{\"sharingVersion\":4}", "{\"app\":\"guestbook\",\"sharingVersion\":\"4\"}",
        "{\"app\":\"guestbook\",\"sharingVersion\":4.5}", "{\"app\":\"guestbook\",\"sharingVersion\":-1}",
        "{\"app\":\"guestbook\",\"sharingVersion\":99999999999999999999}",
        "{\"app\":\"Guestbook\",\"sharingVersion\":4}", "{\"app\":\"a.b\",\"sharingVersion\":4}",
        "{\"app\":\"-a\",\"sharingVersion\":4}", "{\"app\":\"\",\"sharingVersion\":4}",
        "{\"app\":7,\"sharingVersion\":4}", "{\"app\":\"guestbook\",\"sharingVersion\":4,\"sequence\":-2}",
        "{\"app\":\"guestbook\",\"sharingVersion\":4,\"sequence\":\"3\"}"})
    void refusesWhatItCannotRead(String body) throws IOException {
        assertThat(read(body)).isNull();
    }

    @Test
    void refusesALongBody() throws IOException {
        String padding = " ".repeat(SharingVersionPush.MAX_BODY_BYTES);
        assertThat(read("{\"app\":\"guestbook\",\"sharingVersion\":4}" + padding)).isNull();
    }
}
