package dev.qaldy.gate.sites;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.qaldy.gate.platform.ControlPlaneUnavailable;
import dev.qaldy.gate.sites.VisibilityAnswer.Kind;
import org.junit.jupiter.api.Test;

class VisibilityAnswerTest {

    static String body(String app, String visibility) {
        return "{\"app\":\"" + app + "\",\"kind\":\"site\",\"visibility\":\"" + visibility
                + "\",\"sharingVersion\":4,\"accountId\":9}";
    }

    @Test
    void public_and_private_are_read_with_version_and_account() throws Exception {
        VisibilityAnswer open = VisibilityAnswer.read(200, body("docs", "public"), "docs");
        assertThat(open.kind()).isEqualTo(Kind.PUBLIC);
        assertThat(open.sharingVersion()).isEqualTo(4);
        assertThat(open.accountId()).isEqualTo(9);
        assertThat(VisibilityAnswer.read(200, body("docs", "private"), "docs").kind()).isEqualTo(Kind.PRIVATE);
    }

    @Test
    void only_a_well_formed_public_for_this_app_is_public() throws Exception {
        assertThat(VisibilityAnswer.read(200, body("other", "public"), "docs").kind()).isEqualTo(Kind.UNUSABLE);
        assertThat(VisibilityAnswer.read(200, body("docs", "PUBLIC"), "docs").kind()).isEqualTo(Kind.UNUSABLE);
        assertThat(VisibilityAnswer.read(200, "{\"app\":\"docs\",\"visibility\":\"public\"}", "docs").kind())
                .as("no sharing version").isEqualTo(Kind.UNUSABLE);
        assertThat(VisibilityAnswer.read(200, "not json", "docs").kind()).isEqualTo(Kind.UNUSABLE);
        assertThat(VisibilityAnswer.read(401, "", "docs").kind()).isEqualTo(Kind.UNUSABLE);
        assertThat(VisibilityAnswer.read(404, "", "docs").kind()).isEqualTo(Kind.UNKNOWN_APP);
    }

    @Test
    void a_5xx_is_a_control_plane_failure_not_an_answer() {
        assertThatThrownBy(() -> VisibilityAnswer.read(503, "", "docs")).isInstanceOf(ControlPlaneUnavailable.class);
    }
}
