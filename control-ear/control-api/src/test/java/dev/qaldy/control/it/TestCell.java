package dev.qaldy.control.it;

import dev.qaldy.contract.keys.CellKeys;
import dev.qaldy.contract.keys.CellPublicKeys;
import dev.qaldy.contract.keys.CellSigningKey;
import dev.qaldy.contract.keys.ServiceDirection;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.interfaces.ECPrivateKey;
import java.security.interfaces.ECPublicKey;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Stream;
import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.importer.ZipImporter;
import org.jboss.shrinkwrap.api.spec.WebArchive;

/**
 * The files a test Micro needs before it boots (a fresh cell key pair and service token under
 * {@code target/it-cell/keys}, an empty var and root dir), and the WAR under test named ROOT.war so
 * that it is deployed at context root "/", as the launcher deploys it.
 */
final class TestCell {

    static final Path DIR = Path.of(System.getProperty("qaldy.it.dir", "target/it-cell"));
    static final Path KEYS = DIR.resolve("keys");
    static final Path VAR = DIR.resolve("var");

    private static CellPublicKeys publicKeys;
    private static CellSigningKey signingKey;
    private static final Map<ServiceDirection, String> CREDENTIALS = new EnumMap<>(ServiceDirection.class);

    private TestCell() {
    }

    /** Writes fresh keys and service credentials (one per direction), and returns the WAR to deploy; called from {@code @Deployment}. */
    static synchronized WebArchive prepareAndDeploy() {
        try {
            deleteTree(DIR.resolve("micro"));
            deleteTree(VAR);
            Files.createDirectories(KEYS);
            Files.createDirectories(DIR.resolve("tmp"));
            KeyPair pair = CellKeys.generate();
            publicKeys = CellKeys.published(pair);
            signingKey = CellKeys.signing(pair);
            Files.writeString(KEYS.resolve("cell.pub.pem"), CellKeys.toPem((ECPublicKey) pair.getPublic()), StandardCharsets.US_ASCII);
            Files.writeString(KEYS.resolve("cell.key.pem"), CellKeys.toPem((ECPrivateKey) pair.getPrivate()), StandardCharsets.US_ASCII);
            for (ServiceDirection direction : ServiceDirection.values()) {
                String secret = UUID.randomUUID() + "-" + UUID.randomUUID();
                CREDENTIALS.put(direction, secret);
                Files.writeString(KEYS.resolve(direction.fileName()), secret + "\n", StandardCharsets.UTF_8);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        File war = new File(System.getProperty("qaldy.it.war"));
        return ShrinkWrap.create(ZipImporter.class, "ROOT.war").importFrom(war).as(WebArchive.class);
    }

    static CellPublicKeys publicKey() {
        return publicKeys;
    }

    static CellSigningKey privateKey() {
        return signingKey;
    }

    /** The gate's credential for the control plane (gate-to-control). */
    static String serviceToken() {
        return credential(ServiceDirection.GATE_TO_CONTROL);
    }

    /** The runtime host's credential for the control plane (runtime-to-control). */
    static String runtimeToken() {
        return credential(ServiceDirection.RUNTIME_TO_CONTROL);
    }

    /** The credential of {@code direction}, as written to the keys folder. */
    static String credential(ServiceDirection direction) {
        return CREDENTIALS.get(direction);
    }

    /** Files left in the upload spool (should be none once builds are done or refused). */
    static long spooledUploads() throws IOException {
        Path uploads = VAR.resolve("uploads");
        if (!Files.isDirectory(uploads)) {
            return 0;
        }
        try (Stream<Path> files = Files.list(uploads)) {
            return files.count();
        }
    }

    /**
     * Deletes {@code dir}; the previous test class's Micro may still be removing its own files
     * while it shuts down, so vanished files are fine and a busy tree is tried again (up to 5 s).
     */
    private static void deleteTree(Path dir) throws IOException {
        for (int attempt = 0; ; attempt++) {
            if (!Files.exists(dir)) {
                return;
            }
            try (Stream<Path> paths = Files.walk(dir)) {
                for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                    Files.deleteIfExists(path);
                }
                return;
            } catch (java.nio.file.NoSuchFileException | java.nio.file.DirectoryNotEmptyException | UncheckedIOException busy) {
                if (attempt >= 20) {
                    throw new IOException("cannot clear " + dir, busy);
                }
                try {
                    Thread.sleep(250);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IOException("interrupted while clearing " + dir, e);
                }
            }
        }
    }
}
