package dev.qaldy.runtime.bundles.control;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.qaldy.runtime.bundles.entity.Bundle;
import dev.qaldy.runtime.bundles.entity.BundleKey;
import dev.qaldy.runtime.bundles.entity.CodeSource;
import dev.qaldy.runtime.bundles.entity.LiveVersion;
import dev.qaldy.runtime.bundles.entity.Sourced;
import dev.qaldy.runtime.platform.CellCredentials;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Clock;
import java.util.Optional;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * Verified, unpacked bundles by (app, version), in memory, bounded by total bytes (least recently
 * used out first). A miss fetches the bundle from the control plane, checks hash and seal, unpacks
 * it and keeps a sealed copy in the data-centre cache; concurrent misses for one version share one
 * fetch. The copy is read only when the control plane cannot be asked (the live version came from
 * memory or the data-centre record, or fetching the bundle failed), never instead of asking.
 */
@ApplicationScoped
public class BundleStore {

    private ControlPlaneClient controlPlane;
    private DataCentreCache copies;
    private CellCredentials credentials;
    private Clock clock;
    private Logger log;
    private Cache<BundleKey, Bundle> memory;
    private final SingleFlight<BundleKey, Sourced<Bundle>> loading = new SingleFlight<>();

    protected BundleStore() {
    }

    /** @param memoryBytes bound on the bytes of all bundles held, in bytes */
    @Inject
    public BundleStore(@ConfigProperty(name = "qaldy.runtime.bundle-memory-bytes", defaultValue = "67108864") long memoryBytes,
            ControlPlaneClient controlPlane, DataCentreCache copies, CellCredentials credentials, Clock clock,
            Logger log) {
        this.controlPlane = controlPlane;
        this.copies = copies;
        this.credentials = credentials;
        this.clock = clock;
        this.log = log;
        this.memory = Caffeine.newBuilder()
                .maximumWeight(memoryBytes)
                .weigher((BundleKey key, Bundle bundle) -> (int) Math.min(Integer.MAX_VALUE, bundle.weight()))
                .executor(Runnable::run)
                .build();
    }

    /**
     * The bundle of the live version, verified against the live answer's SHA-256 and seal, and where
     * it came from: memory keeps the live answer's source, a fetch is {@link CodeSource#API}, a
     * data-centre copy {@link CodeSource#DC_COPY}.
     *
     * @throws BundleRefusedException           hash or seal do not match, or the zip is unsafe
     * @throws NotPublishedException            the version is gone
     * @throws ControlPlaneUnavailableException the control plane could not be asked and there is no good copy
     */
    public Sourced<Bundle> bundle(Sourced<LiveVersion> known) {
        LiveVersion live = known.value();
        Bundle held = held(live);
        if (held != null) {
            return new Sourced<>(held, known.source());
        }
        return loading.run(live.key(), () -> {
            Bundle again = held(live);
            if (again != null) {
                return new Sourced<>(again, known.source());
            }
            Sourced<Bundle> loaded = load(known);
            memory.put(live.key(), loaded.value());
            log.log(Level.INFO, "Loaded {0} from {1}", new Object[] {loaded.value(), loaded.source().header()});
            return loaded;
        });
    }

    /** Drops every version of {@code app} from memory. */
    public void forget(String app) {
        memory.asMap().keySet().removeIf(key -> key.app().equals(app));
    }

    /** Drops one version from memory. */
    public void forget(BundleKey key) {
        memory.invalidate(key);
    }

    /** Bytes of all bundles held now (approximate; for health and tests). */
    public long heldBytes() {
        memory.cleanUp();
        return memory.policy().eviction().map(e -> e.weightedSize().orElse(0)).orElse(0L);
    }

    private Bundle held(LiveVersion live) {
        Bundle bundle = memory.getIfPresent(live.key());
        if (bundle == null || bundle.sha256().equals(live.sha256())) {
            return bundle;
        }
        // A version never changes; a different hash means the cell itself was recreated.
        log.log(Level.WARNING, "Dropping {0}: held SHA-256 {1}, the control plane now says {2}",
                new Object[] {live.key(), bundle.sha256(), live.sha256()});
        memory.asMap().remove(live.key(), bundle);
        return null;
    }

    private Sourced<Bundle> load(Sourced<LiveVersion> known) {
        LiveVersion live = known.value();
        if (known.source().outage()) {
            return fromCopy(live).orElseThrow(() -> new ControlPlaneUnavailableException(
                    "control plane cannot be asked and there is no good data-centre copy of " + live.key()));
        }
        byte[] zip;
        try {
            zip = controlPlane.bundle(live.key());
        } catch (ControlPlaneUnavailableException e) {
            return fromCopy(live).orElseThrow(() -> e);
        }
        BundleVerifier.verify(live.key(), live.sha256(), live.seal(), zip, credentials.publicKeys());
        Bundle bundle = BundleUnpacker.unpack(live.key(), live.sha256(), zip, clock.instant());
        copies.keep(live, zip);
        return new Sourced<>(bundle, CodeSource.API);
    }

    private Optional<Sourced<Bundle>> fromCopy(LiveVersion live) {
        return copies.read(live.key(), live.sha256())
                .map(zip -> new Sourced<>(BundleUnpacker.unpack(live.key(), live.sha256(), zip, clock.instant()),
                        CodeSource.DC_COPY));
    }
}
