package dev.qaldy.control.apps.entity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.qaldy.control.platform.control.InvalidInput;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class AppNameTest {

    @ParameterizedTest
    @ValueSource(strings = {"a", "guestbook", "my-app", "app2", "0", "a-b-c-1", "a--b", "abc--d", "x23456789012345678901234567890123456789012345678901234567890123"})
    void dns_labels_are_accepted(String name) {
        assertThat(AppName.check(name)).isEqualTo(name);
    }

    @ParameterizedTest
    @ValueSource(strings = {"my.app", "My-App", "-app", "app-", "app_1", "a b", "ünï",
            "x234567890123456789012345678901234567890123456789012345678901234", "a/b"})
    void anything_else_names_the_rule(String name) {
        assertThatThrownBy(() -> AppName.check(name)).isInstanceOf(InvalidInput.class)
                .hasMessageContaining("cannot be part of a web address").hasMessageContaining("1 to 63 characters");
    }

    @ParameterizedTest
    @ValueSource(strings = {"api", "console", "www", "hooks", "status", "admin", "qaldy", "localhost"})
    void reserved_names_are_refused(String name) {
        assertThatThrownBy(() -> AppName.check(name)).isInstanceOf(InvalidInput.class)
                .hasMessageContaining("is reserved");
    }

    @ParameterizedTest
    @ValueSource(strings = {"xn--nxasmq6b", "ab--cd", "zz--9"})
    void labels_dns_keeps_for_internationalized_names_are_refused(String name) {
        assertThatThrownBy(() -> AppName.check(name)).isInstanceOf(InvalidInput.class)
                .hasMessageContaining("3rd and 4th places");
    }

    @ParameterizedTest
    @ValueSource(strings = {""})
    void an_empty_name_is_required(String name) {
        assertThatThrownBy(() -> AppName.check(name)).hasMessageContaining("required");
        assertThatThrownBy(() -> AppName.check(null)).hasMessageContaining("required");
    }
}
