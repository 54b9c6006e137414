package dev.qaldy.control.platform.control;

import dev.qaldy.contract.keys.ServiceCredential;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.nio.file.Path;
import java.util.logging.Logger;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * The cell's shared service secret (one line in {@code qaldy.service-token-file}, the rule of
 * {@link ServiceCredential}), which the gate and the runtime host present in
 * {@code X-Qaldy-Service-Token}. Read when first needed; while the file is missing or its secret
 * too short, every service call is refused.
 */
@ApplicationScoped
public class ServiceToken {

    @Inject
    @ConfigProperty(name = "qaldy.service-token-file", defaultValue = "var/keys/service-token")
    String file;

    @Inject
    Logger log;

    private volatile ServiceCredential credential;

    /** Whether {@code presented} is the cell's service token ({@link ServiceCredential#matches}). */
    public boolean matches(String presented) {
        ServiceCredential known = credential();
        return known != null && known.matches(presented);
    }

    /**
     * The secret itself, for the control plane's own calls to the gates and the runtime host.
     *
     * @return the secret, or an empty string while it cannot be read (the callee then refuses the call)
     */
    public String secret() {
        ServiceCredential known = credential();
        return known == null ? "" : known.secret();
    }

    private ServiceCredential credential() {
        ServiceCredential known = credential;
        if (known == null) {
            try {
                known = ServiceCredential.read(Path.of(file));
                credential = known;
            } catch (IllegalStateException e) {
                log.warning(() -> e.getMessage() + "; refusing every service call");
                return null;
            }
        }
        return known;
    }
}
