package dev.qaldy.runtime.bundles.control;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.qaldy.runtime.bundles.entity.Bundle;
import dev.qaldy.runtime.bundles.entity.BundleKey;
import dev.qaldy.runtime.bundles.entity.LiveVersion;
import dev.qaldy.runtime.platform.CellCredentials;
import dev.qaldy.runtime.platform.ServingException;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Clock;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * Verified, unpacked bundles by (app, version), in memory, bounded by total bytes (least recently
 * used out first). A miss fetches the bundle from the control plane, checks hash and seal, and
 * unpacks it; concurrent misses for one version share one fetch. The sealed copy in the
 * data-centre cache (read only when the control plane cannot be asked) belongs here too.
 */
@ApplicationScoped
public class BundleStore {

    private ControlPlaneClient controlPlane;
    private CellCredentials credentials;
    private Clock clock;
    private Logger log;
    private Cache<BundleKey, Bundle> memory;
    /** Fetches in flight, so that concurrent misses for one version share one fetch. */
    private final ConcurrentHashMap<BundleKey, CompletableFuture<Bundle>> loading = new ConcurrentHashMap<>();

    protected BundleStore() {
    }

    /** @param memoryBytes bound on the bytes of all bundles held, in bytes */
    @Inject
    public BundleStore(@ConfigProperty(name = "qaldy.runtime.bundle-memory-bytes", defaultValue = "67108864") long memoryBytes,
            ControlPlaneClient controlPlane, CellCredentials credentials, Clock clock, Logger log) {
        this.controlPlane = controlPlane;
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
     * The bundle of the live version, verified against the live answer's SHA-256 and seal.
     *
     * @throws BundleRefusedException           hash or seal do not match, or the zip is unsafe
     * @throws NotPublishedException            the version is gone
     * @throws ControlPlaneUnavailableException the control plane could not be asked
     */
    public Bundle bundle(LiveVersion live) {
        BundleKey key = live.key();
        Bundle held = held(live);
        if (held != null) {
            return held;
        }
        CompletableFuture<Bundle> mine = new CompletableFuture<>();
        CompletableFuture<Bundle> other = loading.putIfAbsent(key, mine);
        if (other != null) {
            return await(other);
        }
        try {
            Bundle bundle = held(live);
            if (bundle == null) {
                bundle = load(live);
                memory.put(key, bundle);
                log.log(Level.INFO, "Loaded {0}", bundle);
            }
            mine.complete(bundle);
            return bundle;
        } catch (RuntimeException | Error e) {
            mine.completeExceptionally(e);
            throw e;
        } finally {
            loading.remove(key, mine);
        }
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

    private Bundle load(LiveVersion live) {
        byte[] zip = controlPlane.bundle(live.key());
        BundleVerifier.verify(live.key(), live.sha256(), live.seal(), zip, credentials.publicKey());
        return BundleUnpacker.unpack(live.key(), live.sha256(), zip, clock.instant());
    }

    private static Bundle await(CompletableFuture<Bundle> future) {
        try {
            return future.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ControlPlaneUnavailableException("interrupted while waiting for a bundle", e);
        } catch (ExecutionException | CompletionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof ServingException serving) {
                throw serving;
            }
            throw new IllegalStateException("loading a bundle failed", cause);
        }
    }
}
