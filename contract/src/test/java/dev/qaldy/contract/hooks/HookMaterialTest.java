package dev.qaldy.contract.hooks;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** What the feed and the push tell a gate about a hook (issue 17). */
class HookMaterialTest {

    @Test
    void a_made_hook_carries_its_secrets_and_since_a_deleted_one_none() {
        assertThat(new HookMaterial("memo", "ping", 3, "digest", List.of("s1"), 1_000, 0, 0, false).toJson().toString())
                .isEqualTo("{\"app\":\"memo\",\"hook\":\"ping\",\"sequence\":3,\"job\":\"digest\",\"secrets\":[\"s1\"],\"since\":1000}");
        assertThat(HookMaterial.deleted("memo", "ping", 4).toJson().toString())
                .isEqualTo("{\"app\":\"memo\",\"hook\":\"ping\",\"sequence\":4,\"deleted\":true}");
    }

    @Test
    void a_rolled_secret_carries_the_previous_one_and_when_it_stops() {
        assertThat(new HookMaterial("memo", "ping", 5, "digest", List.of("new", "old"), 2_000, 90_000, 12, false).toJson().toString())
                .isEqualTo("{\"app\":\"memo\",\"hook\":\"ping\",\"sequence\":5,\"job\":\"digest\",\"secrets\":[\"new\",\"old\"],"
                        + "\"since\":2000,\"previousUntil\":90000,\"owner\":12}");
    }
}
