package dev.qaldy.gate.platform;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.qaldy.contract.data.DataGrants;
import dev.qaldy.contract.keys.CellKeys;
import dev.qaldy.contract.keys.ServiceCredential;
import dev.qaldy.contract.keys.ServiceDirection;
import dev.qaldy.contract.keys.ServiceKeyring.Verdict;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.interfaces.ECPublicKey;
import java.time.Clock;
import java.time.Instant;
import java.util.logging.Logger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Issue 16: one rule for credentials in every component, and each direction its own credential. */
class CellSecretsTest {

    @TempDir
    Path dir;

    private CellSecrets secrets() throws Exception {
        Files.writeString(dir.resolve("cell.pub.pem"), CellKeys.toPem((ECPublicKey) CellKeys.generate().getPublic()));
        CellSecrets secrets = new CellSecrets();
        secrets.publicKeyFile = dir.resolve("cell.pub.pem").toString();
        secrets.keysDir = dir.toString();
        secrets.clock = Clock.systemUTC();
        secrets.log = Logger.getLogger(CellSecretsTest.class.getName());
        secrets.load();
        return secrets;
    }

    private void write(ServiceDirection direction, String secret) throws Exception {
        Files.writeString(dir.resolve(direction.fileName()), secret + "\n");
    }

    private void writeAll() throws Exception {
        for (ServiceDirection direction : CellSecrets.HELD) {
            write(direction, direction.fileName() + "-0123456789");
        }
    }

    @Test
    void a_credential_shorter_than_sixteen_characters_is_not_loaded_and_every_call_is_refused() throws Exception {
        writeAll();
        write(ServiceDirection.CONTROL_TO_GATE, "x");
        CellSecrets secrets = secrets();
        assertThat(secrets.loaded()).isFalse();
        assertThat(secrets.missing()).contains("control-to-gate");
        assertThatThrownBy(() -> secrets.check("x", ServiceDirection.CONTROL_TO_GATE)).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void the_control_planes_pushes_take_its_credential_only_and_the_gates_own_are_told_apart() throws Exception {
        writeAll();
        CellSecrets secrets = secrets();
        assertThat(secrets.loaded()).isTrue();
        assertThat(secrets.check(" control-to-gate-0123456789 ", ServiceDirection.CONTROL_TO_GATE)).isEqualTo(Verdict.ACCEPTED);
        assertThat(secrets.check("gate-to-control-0123456789", ServiceDirection.CONTROL_TO_GATE)).isEqualTo(Verdict.WRONG_DIRECTION);
        assertThat(secrets.check("metrics-to-gate-0123456789", ServiceDirection.CONTROL_TO_GATE)).isEqualTo(Verdict.WRONG_DIRECTION);
        assertThat(secrets.check("control-to-gate-012345678", ServiceDirection.CONTROL_TO_GATE)).isEqualTo(Verdict.UNKNOWN);
        assertThat(secrets.check(null, ServiceDirection.CONTROL_TO_GATE)).isEqualTo(Verdict.UNKNOWN);
        assertThat(secrets.toControl()).isEqualTo("gate-to-control-0123456789");
        assertThat(secrets.toRuntime()).isEqualTo("gate-to-runtime-0123456789");
    }

    @Test
    void the_data_grants_it_makes_are_the_control_planes_to_check() throws Exception {
        writeAll();
        CellSecrets secrets = secrets();
        DataGrants control = new DataGrants(ServiceCredential.of("gate-to-control-0123456789", "the control plane's copy"));
        assertThat(control.allows("guestbook", secrets.dataGrant("guestbook"), Instant.now())).isTrue();
        assertThat(control.allows("board", secrets.dataGrant("guestbook"), Instant.now())).isFalse();
    }
}
