package dev.qaldy.runtime.testing;

import dev.qaldy.contract.data.DataGrants;
import dev.qaldy.contract.keys.CellKeys;
import dev.qaldy.contract.keys.ServiceCredential;
import dev.qaldy.contract.keys.ServiceDirection;
import dev.qaldy.runtime.platform.CellCredentials;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.interfaces.ECPublicKey;
import java.time.Clock;
import java.time.Instant;
import java.util.logging.Logger;

/** Writes the service credentials (one per direction) and a public key where the runtime host reads them. */
public final class TestCredentials {

    /** The gate's credential for the runtime host. */
    public static final String FROM_GATE = secret(ServiceDirection.GATE_TO_RUNTIME);
    /** The control plane's credential for the runtime host (jobs). */
    public static final String FROM_CONTROL = secret(ServiceDirection.CONTROL_TO_RUNTIME);
    /** The runtime host's own credential for the control plane. */
    public static final String TO_CONTROL = secret(ServiceDirection.RUNTIME_TO_CONTROL);
    /** The grants the gate and the control plane make (keyed from gate-to-control, which the host never holds). */
    public static final DataGrants GRANTS = new DataGrants(ServiceCredential.of(secret(ServiceDirection.GATE_TO_CONTROL), "tests"));

    private TestCredentials() {
    }

    /** The test secret of {@code direction}. */
    public static String secret(ServiceDirection direction) {
        return direction.fileName() + "-test-secret-0123456789";
    }

    /** A data grant for {@code app}, as the gate sends it now. */
    public static String grant(String app) {
        return GRANTS.issue(app, Instant.now());
    }

    /** Writes the runtime host's own files (never gate-to-control) and reads them as the host does. */
    public static CellCredentials write(Path dir, KeyPair keys) {
        try {
            for (ServiceDirection direction : new ServiceDirection[] {ServiceDirection.GATE_TO_RUNTIME,
                    ServiceDirection.CONTROL_TO_RUNTIME, ServiceDirection.RUNTIME_TO_CONTROL}) {
                Files.writeString(dir.resolve(direction.fileName()), secret(direction) + "\n");
            }
            Files.writeString(dir.resolve("cell.pub.pem"), CellKeys.toPem((ECPublicKey) keys.getPublic()));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return read(dir, Clock.systemUTC());
    }

    public static CellCredentials read(Path dir, Clock clock) {
        CellCredentials credentials = new CellCredentials(dir.toString(), dir.resolve("cell.pub.pem").toString(), clock,
                Logger.getLogger(TestCredentials.class.getName()));
        credentials.requireReady();
        return credentials;
    }
}
