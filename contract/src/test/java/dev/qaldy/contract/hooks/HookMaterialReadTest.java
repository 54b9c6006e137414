package dev.qaldy.contract.hooks;

import static org.assertj.core.api.Assertions.assertThat;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import java.io.StringReader;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

/** The feed's and the push's shape of a hook, as the gate reads it. */
class HookMaterialReadTest {

    static JsonObject json(String text) {
        return Json.createReader(new StringReader(text)).readObject();
    }

    @Test
    void a_made_hook_and_a_deleted_one_are_read_back_as_written() {
        HookMaterial made = HookMaterial.read(json("{\"app\":\"memo\",\"hook\":\"ping\",\"sequence\":3,\"job\":\"digest\","
                + "\"secrets\":[\"s1\",\"s2\"],\"since\":1000}"), p -> { }).orElseThrow();
        assertThat(made.secrets()).containsExactly("s1", "s2");
        assertThat(HookMaterial.read(made.toJson(), p -> { })).contains(made);
        HookMaterial deleted = HookMaterial.read(json("{\"app\":\"memo\",\"hook\":\"ping\",\"sequence\":4,\"deleted\":true}"), p -> { })
                .orElseThrow();
        assertThat(deleted.deleted()).isTrue();
        assertThat(deleted.secrets()).isEmpty();
    }

    @Test
    void a_rolled_secret_keeps_the_previous_one_until_its_end_and_is_read_back_as_written() {
        HookMaterial rolled = HookMaterial.read(json("{\"app\":\"memo\",\"hook\":\"ping\",\"sequence\":5,\"job\":\"digest\","
                + "\"secrets\":[\"new\",\"old\"],\"since\":2000,\"previousUntil\":90000}"), p -> { }).orElseThrow();
        assertThat(rolled.previousUntil()).isEqualTo(90_000);
        assertThat(rolled.secretsAt(89_999)).containsExactly("new", "old");
        assertThat(rolled.secretsAt(90_000)).containsExactly("new");
        assertThat(HookMaterial.read(rolled.toJson(), p -> { })).contains(rolled);
        assertThat(rolled.toString()).doesNotContain("new").doesNotContain("old");
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "{\"app\":\"Memo\",\"hook\":\"ping\",\"sequence\":3,\"job\":\"d\",\"secrets\":[\"s\"],\"since\":1}",
        "{\"app\":\"memo\",\"hook\":\"../x\",\"sequence\":3,\"job\":\"d\",\"secrets\":[\"s\"],\"since\":1}",
        "{\"app\":\"memo\",\"hook\":\"ping\",\"sequence\":0,\"job\":\"d\",\"secrets\":[\"s\"],\"since\":1}",
        "{\"app\":\"memo\",\"hook\":\"ping\",\"sequence\":3,\"job\":\"d\",\"secrets\":[],\"since\":1}",
        "{\"app\":\"memo\",\"hook\":\"ping\",\"sequence\":3,\"job\":\"d\",\"secrets\":[\"s\"]}",
        "{\"app\":\"memo\",\"hook\":\"ping\",\"sequence\":3,\"secrets\":[\"s\"],\"since\":1}"})
    void anything_else_is_refused_with_a_reason_that_names_no_secret(String text) {
        List<String> problems = new ArrayList<>();
        assertThat(HookMaterial.read(json(text), problems::add)).isEmpty();
        assertThat(problems).hasSize(1).allMatch(p -> !p.contains("\"s\""));
    }
}
