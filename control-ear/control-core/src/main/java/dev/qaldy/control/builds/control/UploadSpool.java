package dev.qaldy.control.builds.control;

import dev.qaldy.control.platform.control.InvalidInput;
import dev.qaldy.control.platform.control.PayloadTooLarge;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * Streams an upload to a temporary file under {@code <qaldy.var>/uploads}, counting bytes: it is
 * never held in memory, and it is cut off with 413 as soon as it passes
 * {@code qaldy.builds.max-upload-bytes} (default 10 MiB).
 */
@ApplicationScoped
public class UploadSpool {

    /**
     * A spooled upload.
     *
     * @param file  the temporary file, owned by whoever holds this from now on
     * @param bytes its size, in bytes
     */
    public record Spooled(Path file, long bytes) {
    }

    @Inject
    @ConfigProperty(name = "qaldy.builds.max-upload-bytes", defaultValue = "10485760")
    long maxUploadBytes;

    @Inject
    @ConfigProperty(name = "qaldy.var", defaultValue = "var")
    String varDir;

    @Inject
    Logger log;

    /** Largest accepted upload, in bytes. */
    public long maxUploadBytes() {
        return maxUploadBytes;
    }

    /**
     * Refuses an upload by its declared length, before reading any of it.
     *
     * @param contentLength the request's {@code Content-Length} header, or {@code null}
     * @throws PayloadTooLarge when it declares more than the limit
     */
    public void checkDeclaredLength(String contentLength) {
        if (contentLength == null || contentLength.isBlank()) {
            return;
        }
        long declared;
        try {
            declared = Long.parseLong(contentLength.trim());
        } catch (NumberFormatException e) {
            throw new InvalidInput("Content-Length is not a number");
        }
        if (declared > maxUploadBytes) {
            throw tooLarge();
        }
    }

    /**
     * Copies {@code body} to a new temporary file.
     *
     * @throws PayloadTooLarge as soon as more than the limit arrived (the partial file is deleted)
     * @throws InvalidInput    for an empty body
     */
    public Spooled spool(InputStream body) {
        Path file = null;
        try {
            Path dir = Files.createDirectories(uploadDir());
            file = Files.createTempFile(dir, "upload-", ".zip");
            long count = 0;
            try (OutputStream out = Files.newOutputStream(file)) {
                byte[] buffer = new byte[64 * 1024];
                int read;
                while ((read = body.read(buffer)) >= 0) {
                    count += read;
                    if (count > maxUploadBytes) {
                        throw tooLarge();
                    }
                    out.write(buffer, 0, read);
                }
            }
            if (count == 0) {
                throw new InvalidInput("the upload is empty; send the zip archive as the request body");
            }
            return new Spooled(file, count);
        } catch (IOException e) {
            discard(file);
            throw new UncheckedIOException("cannot spool an upload to " + uploadDir(), e);
        } catch (RuntimeException e) {
            discard(file);
            throw e;
        }
    }

    /** Deletes a spooled file; never throws. */
    public void discard(Path file) {
        if (file == null) {
            return;
        }
        try {
            Files.deleteIfExists(file);
        } catch (IOException e) {
            log.log(Level.WARNING, "cannot delete {0}: {1}", new Object[] {file, e});
        }
    }

    /** Where uploads and bundles being built wait. */
    public Path workDir() {
        return Path.of(varDir, "builds");
    }

    private Path uploadDir() {
        return Path.of(varDir, "uploads");
    }

    private PayloadTooLarge tooLarge() {
        return new PayloadTooLarge("uploads are limited to " + maxUploadBytes + " bytes ("
                + String.format(java.util.Locale.ROOT, "%.1f", maxUploadBytes / (1024.0 * 1024.0)) + " MiB)");
    }
}
