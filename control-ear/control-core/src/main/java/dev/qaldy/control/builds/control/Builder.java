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
import jakarta.json.Json;
import jakarta.json.JsonReader;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
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
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

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

    /**
     * The jobs the bundle's handler script registers ({@link JobExports}: read, never run); the
     * handler is the manifest's, else {@code server.js} when present, as the runtime host picks it.
     */
    static JobExports jobsOf(Path bundle) throws IOException {
        try (ZipFile zip = new ZipFile(bundle.toFile())) {
            ZipEntry manifestEntry = zip.getEntry(Manifest.FILE);
            String handler = null;
            if (manifestEntry != null) {
                try (InputStream in = zip.getInputStream(manifestEntry); JsonReader reader = Json.createReader(in)) {
                    JsonValue value = reader.readObject().get("handler");
                    handler = value instanceof JsonString named ? named.getString() : null;
                } catch (RuntimeException e) {
                    handler = null; // the packager checked the manifest already
                }
            }
            if (handler == null && zip.getEntry("server.js") != null) {
                handler = "server.js";
            }
            ZipEntry script = handler == null ? null : zip.getEntry(handler);
            if (script == null) {
                return JobExports.none();
            }
            try (InputStream in = zip.getInputStream(script)) {
                return JobExports.read(new String(in.readAllBytes(), StandardCharsets.UTF_8), handler);
            }
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
            String signed = BundleSeals.sign(seal, keys.signingKey());
            lines.add("sealed version " + build.version() + " with the cell key");
            JobExports jobs = jobsOf(bundle);
            lines.add(jobs.complete() ? "jobs (app.job): " + jobs.describe()
                    : "jobs (app.job): not known, so schedules and hooks naming any job are accepted; " + jobs.note());
            recorder.succeed(build.buildId(), Files.readAllBytes(bundle), packed.sha256(), signed, jobs, lines);
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
