package dev.qaldy.runtime.sites.control;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.qaldy.runtime.bundles.control.DataCentreCache;
import dev.qaldy.runtime.bundles.entity.BundleKey;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Which static files of a version this data centre has served (seed: "a file that this data centre
 * never served before needs the API"). While the control plane answers, each file served is
 * recorded next to the version's copy in the data-centre cache; while it cannot be asked, only
 * recorded files are answered. The files of a version are at most the bundle's, so the index is bounded.
 */
@ApplicationScoped
public class ServedFiles {

    static final int MAX_VERSIONS_HELD = 10_000;

    private DataCentreCache copies;
    private Cache<BundleKey, Set<String>> known;

    protected ServedFiles() {
    }

    @Inject
    public ServedFiles(DataCentreCache copies) {
        this.copies = copies;
        this.known = Caffeine.newBuilder().maximumSize(MAX_VERSIONS_HELD).executor(Runnable::run).build();
    }

    /** Notes that {@code path} (a bundle path such as {@code public/index.html}) of {@code key} was served. */
    public void record(BundleKey key, String path) {
        if (paths(key).add(path)) {
            copies.recordServed(key, path);
        }
    }

    /** True when this host or another of the data centre served {@code path} of {@code key}. */
    public boolean served(BundleKey key, String path) {
        Set<String> paths = paths(key);
        if (paths.contains(path)) {
            return true;
        }
        // Another host may have served it since this one last read the index.
        Set<String> shared = copies.servedPaths(key);
        paths.addAll(shared);
        return shared.contains(path);
    }

    private Set<String> paths(BundleKey key) {
        return known.get(key, k -> {
            Set<String> paths = ConcurrentHashMap.newKeySet();
            paths.addAll(copies.servedPaths(k));
            return paths;
        });
    }
}
