package dev.qaldy.runtime.platform;

import dev.qaldy.contract.keys.CellKeys;
import dev.qaldy.contract.keys.ServiceCredential;
import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.nio.file.Path;
import java.security.interfaces.ECPublicKey;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * The two secrets the runtime host holds: the shared service token (it accepts calls from the gate
 * with it and sends it to the control plane) and the cell's public key (it checks bundle seals).
 * Both are read from files; while either is missing the host is not ready and refuses requests.
 */
@ApplicationScoped
public class CellCredentials {

    /** How often a missing file is looked for again. */
    static final Duration RETRY = Duration.ofSeconds(5);

    private Path tokenFile;
    private Path publicKeyFile;
    private Clock clock;
    private Logger log;

    private volatile Loaded loaded;
    private volatile Instant lastAttempt = Instant.MIN;

    protected CellCredentials() {
    }

    @Inject
    public CellCredentials(@ConfigProperty(name = "qaldy.service-token-file") String tokenFile,
            @ConfigProperty(name = "qaldy.keys.public") String publicKeyFile, Clock clock, Logger log) {
        this.tokenFile = Path.of(tokenFile);
        this.publicKeyFile = Path.of(publicKeyFile);
        this.clock = clock;
        this.log = log;
    }

    @PostConstruct
    void load() {
        tryLoad();
    }

    /** True once both the token and the public key are read. */
    public boolean ready() {
        return current().isPresent();
    }

    /** @throws NotReadyException while the token or the key is missing */
    public void requireReady() {
        current().orElseThrow(NotReadyException::new);
    }

    /**
     * Whether {@code presented} is our service token ({@link ServiceCredential#matches}); false
     * while ours is not loaded.
     */
    public boolean tokenMatches(String presented) {
        Optional<Loaded> now = current();
        return now.isPresent() && now.get().token().matches(presented);
    }

    /** The service token to send to the control plane. */
    public String serviceToken() {
        return current().orElseThrow(NotReadyException::new).token().secret();
    }

    /** The cell's public key, for seals. */
    public ECPublicKey publicKey() {
        return current().orElseThrow(NotReadyException::new).publicKey();
    }

    private Optional<Loaded> current() {
        Loaded now = loaded;
        if (now == null && !clock.instant().isBefore(lastAttempt.plus(RETRY))) {
            now = tryLoad();
        }
        return Optional.ofNullable(now);
    }

    private synchronized Loaded tryLoad() {
        if (loaded != null) {
            return loaded;
        }
        lastAttempt = clock.instant();
        try {
            ServiceCredential token = ServiceCredential.read(tokenFile);
            ECPublicKey key = CellKeys.readPublicKey(publicKeyFile);
            loaded = new Loaded(token, key);
            log.log(Level.INFO, "Service token and cell public key loaded from {0} and {1}",
                    new Object[] {tokenFile, publicKeyFile});
        } catch (IllegalStateException e) {
            log.log(Level.WARNING, "Not ready: cannot read the service token ({0}) or the public key ({1}): {2}",
                    new Object[] {tokenFile, publicKeyFile, e.getClass().getSimpleName() + ": " + e.getMessage()});
        }
        return loaded;
    }

    private record Loaded(ServiceCredential token, ECPublicKey publicKey) {
    }

    /** The host's own secrets are not loaded yet: it cannot serve anything. */
    public static class NotReadyException extends ServingException {

        private static final long serialVersionUID = 1L;

        NotReadyException() {
            super("the service token or the cell public key is not loaded");
        }

        @Override
        public int status() {
            return 503;
        }

        @Override
        public String type() {
            return "not-ready";
        }

        @Override
        public String title() {
            return "Temporarily unavailable";
        }

        @Override
        public String detail() {
            return "The runtime host is starting. Please try again in a moment.";
        }
    }
}
