package dev.qaldy.control.people.entity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.assertThatCode;

import dev.qaldy.control.platform.control.InvalidInput;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class EmailAndPasswordRulesTest {

    @Test
    void emails_are_trimmed_and_lower_cased() {
        assertThat(EmailAddress.normalize("  Ana@Example.COM ")).isEqualTo("ana@example.com");
        assertThat(EmailAddress.normalize("a.b+tag@mail.example.co.uk")).isEqualTo("a.b+tag@mail.example.co.uk");
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "ana", "ana@", "@example.com", "ana@example", "ana example@x.com", "a@@b.com", "ana@-x.com"})
    void bad_emails_are_refused(String email) {
        assertThatThrownBy(() -> EmailAddress.normalize(email)).isInstanceOf(InvalidInput.class)
                .hasMessageContaining("at most 254 characters");
    }

    @Test
    void emails_longer_than_254_characters_are_refused() {
        String domain = ("d".repeat(60) + ".").repeat(4) + "com"; // 247 characters
        assertThat(EmailAddress.normalize("abcdef@" + domain)).hasSize(254);
        assertThatThrownBy(() -> EmailAddress.normalize("abcdefg@" + domain)).isInstanceOf(InvalidInput.class);
    }

    @Test
    void passwords_are_10_to_128_characters() {
        assertThatCode(() -> PasswordRule.check("q7w-lm2zpx")).doesNotThrowAnyException();
        assertThatCode(() -> PasswordRule.check("x".repeat(128))).doesNotThrowAnyException();
        assertThatThrownBy(() -> PasswordRule.check("x".repeat(9))).hasMessageContaining("10 to 128");
        assertThatThrownBy(() -> PasswordRule.check("x".repeat(129))).hasMessageContaining("10 to 128");
        assertThatThrownBy(() -> PasswordRule.check(null)).isInstanceOf(InvalidInput.class);
    }

    @org.junit.jupiter.params.ParameterizedTest
    @org.junit.jupiter.params.provider.ValueSource(strings = {"password123", "PASSWORD123", "qwertyuiop", "1234567890", "iloveyou123"})
    void aCommonPasswordIsRefusedWithAWayForward(String common) {
        assertThatThrownBy(() -> PasswordRule.check(common)).isInstanceOf(InvalidInput.class)
                .hasMessageStartingWith("This password is one of the most common ones").hasMessageContaining("Choose another");
    }

    @Test
    void anUncommonPasswordIsTaken() {
        assertThatCode(() -> PasswordRule.check("correct horse battery")).doesNotThrowAnyException();
        assertThatCode(() -> PasswordRule.check("pumpkin-ledger-42-otter")).doesNotThrowAnyException();
    }
}
