package dev.qaldy.runtime.testing;

import dev.qaldy.contract.keys.CellKeys;
import dev.qaldy.runtime.platform.CellCredentials;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.interfaces.ECPublicKey;
import java.time.Clock;
import java.util.logging.Logger;

/** Writes a service token and a public key where the runtime host reads them. */
public final class TestCredentials {

    public static final String TOKEN = "test-service-token-0123456789abcdef";

    private TestCredentials() {
    }

    public static CellCredentials write(Path dir, KeyPair keys) {
        try {
            Files.writeString(dir.resolve("service-token"), TOKEN + "\n");
            Files.writeString(dir.resolve("cell.pub.pem"), CellKeys.toPem((ECPublicKey) keys.getPublic()));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return read(dir, Clock.systemUTC());
    }

    public static CellCredentials read(Path dir, Clock clock) {
        CellCredentials credentials = new CellCredentials(dir.resolve("service-token").toString(),
                dir.resolve("cell.pub.pem").toString(), clock, Logger.getLogger(TestCredentials.class.getName()));
        credentials.requireReady();
        return credentials;
    }
}
