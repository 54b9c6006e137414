package dev.qaldy.contract.keys;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.qaldy.contract.keys.ServiceKeyring.Verdict;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Issue 16: each direction its own credential; one made for another direction is told apart from a wrong one. */
class ServiceKeyringTest {

    @TempDir
    Path dir;

    @Test
    void a_credential_of_another_direction_is_refused_as_such_and_an_unknown_one_as_unknown() throws Exception {
        String gateToControl = write(ServiceDirection.GATE_TO_CONTROL, "g".repeat(32));
        String runtimeToControl = write(ServiceDirection.RUNTIME_TO_CONTROL, "r".repeat(32));
        ServiceKeyring control = new ServiceKeyring(dir, EnumSet.of(ServiceDirection.GATE_TO_CONTROL, ServiceDirection.RUNTIME_TO_CONTROL));
        assertThat(control.reload()).isEmpty();

        Set<ServiceDirection> gateOnly = Set.of(ServiceDirection.GATE_TO_CONTROL);
        assertThat(control.check(gateToControl, gateOnly)).isEqualTo(Verdict.ACCEPTED);
        assertThat(control.check(runtimeToControl, gateOnly)).isEqualTo(Verdict.WRONG_DIRECTION);
        assertThat(control.check("x".repeat(32), gateOnly)).isEqualTo(Verdict.UNKNOWN);
        assertThat(control.check(null, gateOnly)).isEqualTo(Verdict.UNKNOWN);
        assertThat(control.identify(" " + runtimeToControl + "\n")).contains(ServiceDirection.RUNTIME_TO_CONTROL);
    }

    @Test
    void a_component_reads_and_sends_only_the_directions_it_holds() throws Exception {
        write(ServiceDirection.GATE_TO_CONTROL, "g".repeat(32));
        String toGate = write(ServiceDirection.CONTROL_TO_GATE, "c".repeat(32));
        ServiceKeyring runtime = new ServiceKeyring(dir, EnumSet.of(ServiceDirection.RUNTIME_TO_CONTROL));

        assertThat(runtime.reload()).singleElement().asString().contains("runtime-to-control");
        assertThat(runtime.complete()).isFalse();
        assertThat(runtime.missing()).endsWith("runtime-to-control");
        assertThatThrownBy(() -> runtime.secret(ServiceDirection.GATE_TO_CONTROL)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> runtime.secret(ServiceDirection.RUNTIME_TO_CONTROL)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("not loaded");
        assertThat(runtime.check(toGate, Set.of(ServiceDirection.RUNTIME_TO_CONTROL))).as("files it does not hold are never read")
                .isEqualTo(Verdict.UNKNOWN);

        String own = write(ServiceDirection.RUNTIME_TO_CONTROL, "r".repeat(32));
        assertThat(runtime.reload()).isEmpty();
        assertThat(runtime.complete()).isTrue();
        assertThat(runtime.secret(ServiceDirection.RUNTIME_TO_CONTROL)).isEqualTo(own);
    }

    private String write(ServiceDirection direction, String secret) throws Exception {
        Files.writeString(dir.resolve(direction.fileName()), secret + "\n");
        return secret;
    }
}
