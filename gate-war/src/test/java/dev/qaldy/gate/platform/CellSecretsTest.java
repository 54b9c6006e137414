package dev.qaldy.gate.platform;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.qaldy.contract.keys.CellKeys;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.interfaces.ECPublicKey;
import java.time.Clock;
import java.util.logging.Logger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Issue 16: the gate took a service token of any length, where the control plane wants at least 16 characters. */
class CellSecretsTest {

    @TempDir
    Path dir;

    private CellSecrets secrets(String token) throws Exception {
        Files.writeString(dir.resolve("cell.pub.pem"), CellKeys.toPem((ECPublicKey) CellKeys.generate().getPublic()));
        Files.writeString(dir.resolve("service-token"), token + "\n");
        CellSecrets secrets = new CellSecrets();
        secrets.publicKeyFile = dir.resolve("cell.pub.pem").toString();
        secrets.serviceTokenFile = dir.resolve("service-token").toString();
        secrets.clock = Clock.systemUTC();
        secrets.log = Logger.getLogger(CellSecretsTest.class.getName());
        secrets.load();
        return secrets;
    }

    @Test
    void a_service_token_shorter_than_sixteen_characters_is_not_loaded_and_every_call_is_refused() throws Exception {
        CellSecrets secrets = secrets("x");
        assertThat(secrets.loaded()).isFalse();
        assertThat(secrets.missing()).contains("service token");
        assertThatThrownBy(() -> secrets.isServiceToken("x")).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void a_service_token_is_compared_with_the_one_rule_of_the_cell() throws Exception {
        CellSecrets secrets = secrets("a-token-of-the-cell-0123456789");
        assertThat(secrets.loaded()).isTrue();
        assertThat(secrets.isServiceToken(" a-token-of-the-cell-0123456789 ")).isTrue();
        assertThat(secrets.isServiceToken("a-token-of-the-cell-012345678")).isFalse();
        assertThat(secrets.isServiceToken(null)).isFalse();
    }
}
