package dev.qaldy.control.platform.control;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import org.junit.jupiter.api.Test;

class PublicUrlsTest {

    @Test
    void an_app_lives_on_its_own_origin_on_the_gate_port() {
        assertThat(PublicUrls.appUrl(URI.create("http://localhost:8080"), "localhost", "guestbook"))
                .isEqualTo("http://guestbook.localhost:8080/");
        assertThat(PublicUrls.appUrl(URI.create("https://cell.example/"), "apps.example", "shop"))
                .isEqualTo("https://shop.apps.example/");
    }
}
