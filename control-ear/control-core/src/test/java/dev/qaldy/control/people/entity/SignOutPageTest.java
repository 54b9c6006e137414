package dev.qaldy.control.people.entity;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class SignOutPageTest {

    private static final Instant EXP = Instant.parse("2026-11-30T20:00:00Z");

    @Test
    void a_full_page_says_more_and_its_last_position_is_the_next_cursor() {
        SignOutPage page = SignOutPage.of(List.of(new SignedOutSession(7, "a", EXP), new SignedOutSession(9, "b", EXP.plusSeconds(1))), 3, 2);

        assertThat(page.marks()).containsExactly(new SessionSignedOut("a", EXP), new SessionSignedOut("b", EXP.plusSeconds(1)));
        assertThat(page.next()).isEqualTo(9);
        assertThat(page.more()).isTrue();
    }

    @Test
    void a_short_page_is_the_last_and_an_empty_one_keeps_the_cursor() {
        SignOutPage shortPage = SignOutPage.of(List.of(new SignedOutSession(12, "c", EXP)), 9, 2);
        assertThat(shortPage.more()).isFalse();
        assertThat(shortPage.next()).isEqualTo(12);

        SignOutPage empty = SignOutPage.of(List.of(), 12, 500);
        assertThat(empty.marks()).isEmpty();
        assertThat(empty.next()).isEqualTo(12);
        assertThat(empty.more()).isFalse();
    }

    @Test
    void the_limit_is_clamped_to_one_page_at_most() {
        assertThat(SignOutPage.limit(null)).isEqualTo(SignOutPage.DEFAULT);
        assertThat(SignOutPage.limit(0)).isEqualTo(1);
        assertThat(SignOutPage.limit(-5)).isEqualTo(1);
        assertThat(SignOutPage.limit(250)).isEqualTo(250);
        assertThat(SignOutPage.limit(1_000_000)).isEqualTo(SignOutPage.MAX);
    }
}
