package dev.qaldy.control.apps.entity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.qaldy.control.people.entity.Person;
import dev.qaldy.control.platform.control.InvalidInput;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class AppKindTest {

    @Test
    void app_and_site_are_read_in_any_letter_case() {
        assertThat(AppKind.parse("site")).isEqualTo(AppKind.SITE);
        assertThat(AppKind.parse(" Site ")).isEqualTo(AppKind.SITE);
        assertThat(AppKind.parse("app")).isEqualTo(AppKind.APP);
        assertThat(AppKind.SITE.isPublic()).isTrue();
        assertThat(AppKind.APP.isPublic()).isFalse();
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "public", "sites", "apps", "site;app"})
    void anything_else_is_refused(String text) {
        assertThatThrownBy(() -> AppKind.parse(text)).isInstanceOf(InvalidInput.class).hasMessageContaining("\"kind\"");
        assertThatThrownBy(() -> AppKind.parse(null)).isInstanceOf(InvalidInput.class);
    }

    @Test
    void an_unset_or_unknown_stored_kind_is_never_public() {
        assertThat(AppKind.stored(null)).isEqualTo(AppKind.APP);
        assertThat(AppKind.stored("SITE")).isEqualTo(AppKind.APP);
        assertThat(AppKind.stored("public")).isEqualTo(AppKind.APP);
        assertThat(AppKind.stored("site")).isEqualTo(AppKind.SITE);
    }

    @Test
    void an_app_is_an_app_until_made_a_site_and_its_visibility_follows() {
        App app = new App("docs", new Person("owner@example.com", "hash", Instant.EPOCH), Instant.EPOCH);
        assertThat(app.kind()).isEqualTo(AppKind.APP);
        app.changeKind(AppKind.SITE);
        assertThat(app.kind()).isEqualTo(AppKind.SITE);
        app.changeKind(AppKind.APP);
        assertThat(app.kind()).isEqualTo(AppKind.APP);
    }
}
