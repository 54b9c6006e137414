package dev.qaldy.control.builds.control;

import dev.qaldy.contract.seal.BundleSeal;
import dev.qaldy.contract.seal.BundleSeals;
import dev.qaldy.control.builds.entity.BuildQueued;
import dev.qaldy.control.platform.control.CellKeyring;
import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedExecutorService;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.event.TransactionPhase;
import jakarta.inject.Inject;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.RejectedExecutionException;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The builder: once a queued build is committed it runs on the server's default managed executor,
 * checks and packages the archive ({@link BundlePackager}), stores the bundle, its SHA-256 and a
 * seal signed with the cell key. A refused archive fails the build with a clear log line; any other
 * error fails it with a reference to the server log. It never harms the server.
 */
@ApplicationScoped
public class Builder {

    @Resource
    ManagedExecutorService executor;

    @Inject
    BuildRecorder recorder;

    @Inject
    UploadSpool spool;

    @Inject
    CellKeyring keys;

    @Inject
    Clock clock;

    @Inject
    Logger log;

    private final BundlePackager packager = new BundlePackager(BundleLimits.CONTRACT);

    /** Hands a committed build to the executor. */
    public void queued(@Observes(during = TransactionPhase.AFTER_SUCCESS) BuildQueued build) {
        try {
            executor.execute(() -> run(build));
        } catch (RejectedExecutionException e) {
            log.log(Level.WARNING, "builder refused build {0} of {1}: {2}", new Object[] {build.version(), build.app(), e});
            recorder.fail(build.buildId(), List.of("the builder is busy; upload the archive again later"));
            spool.discard(build.upload());
        }
    }

    /** Builds one version; called on an executor thread. */
    void run(BuildQueued build) {
        List<String> lines = new ArrayList<>();
        Path bundle = null;
        try {
            if (!recorder.start(build.buildId())) {
                log.log(Level.INFO, "build {0} of {1} is gone or not queued; skipped", new Object[] {build.version(), build.app()});
                return;
            }
            Files.createDirectories(spool.workDir());
            bundle = Files.createTempFile(spool.workDir(), "bundle-", ".zip");
            PackedBundle packed = packager.pack(build.upload(), bundle, lines);
            BundleSeal seal = new BundleSeal(build.app(), build.version(), packed.sha256(),
                    clock.instant().truncatedTo(ChronoUnit.SECONDS));
            String signed = BundleSeals.sign(seal, keys.privateKey());
            lines.add("sealed version " + build.version() + " with the cell key");
            recorder.succeed(build.buildId(), Files.readAllBytes(bundle), packed.sha256(), signed, lines);
            log.log(Level.INFO, "built {0} version {1}: sha256 {2}", new Object[] {build.app(), build.version(), packed.sha256()});
        } catch (BundleRejected refused) {
            lines.add("refused: " + refused.getMessage());
            recorder.fail(build.buildId(), lines);
            log.log(Level.INFO, "build {0} of {1} failed: {2}", new Object[] {build.version(), build.app(), refused.getMessage()});
        } catch (IOException | RuntimeException | OutOfMemoryError e) {
            String reference = UUID.randomUUID().toString();
            log.log(Level.SEVERE, "build " + build.version() + " of " + build.app() + " broke, reference " + reference, e);
            lines.add("the builder failed on our side (reference " + reference + "); try again later");
            try {
                recorder.fail(build.buildId(), lines);
            } catch (RuntimeException again) {
                log.log(Level.SEVERE, "cannot record the failure of build " + build.buildId(), again);
            }
        } finally {
            spool.discard(build.upload());
            spool.discard(bundle);
        }
    }
}
