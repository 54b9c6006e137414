package dev.qaldy.gate.console;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ConsoleLinksTest {

    @Test
    void opensTheAppThroughTheConsole() {
        assertThat(ConsoleLinks.open("http://localhost:8080", "guestbook", "/entries?page=2&q=a b"))
                .isEqualTo("http://localhost:8080/console/#/open/guestbook?return=%2Fentries%3Fpage%3D2%26q%3Da%20b");
        assertThat(ConsoleLinks.open("http://localhost:8080", "guestbook", "/"))
                .isEqualTo("http://localhost:8080/console/#/open/guestbook?return=%2F");
    }

    @Test
    void homeIsTheConsole() {
        assertThat(ConsoleLinks.home("https://qaldy.example.com")).isEqualTo("https://qaldy.example.com/console/");
    }
}
