package dev.qaldy.runtime.bundles.control;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.qaldy.contract.apps.AppLabel;
import dev.qaldy.contract.live.LiveStatement;
import dev.qaldy.contract.live.LiveStatements;
import dev.qaldy.contract.session.InvalidTokenException;
import dev.qaldy.runtime.bundles.entity.BundleKey;
import dev.qaldy.runtime.bundles.entity.LiveRecord;
import dev.qaldy.runtime.bundles.entity.LiveVersion;
import dev.qaldy.runtime.platform.CellCredentials;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.json.Json;
import jakarta.json.JsonException;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import jakarta.json.JsonString;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.logging.Level;
import java.util.logging.Logger;
import java.util.regex.Pattern;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * The data-centre cache: a directory shared by every runtime host of the data centre, holding a
 * sealed copy of each bundle the hosts fetched, the index of static files served from it, and per
 * app the last live answer. Nothing here is read while the control plane can be asked (callers
 * see to that); whatever does not verify is deleted, logged and treated as absent.
 *
 * <p>Files (app names are DNS labels, so they hold no dot):
 * <ul>
 * <li>{@code <app>.v<version>.bundle}: one ASCII header line
 *     {@code qaldy-dc-copy/1 <length> <sha256> <seal JWS>} and {@code \n}, then exactly
 *     {@code length} bytes of the bundle zip. The seal covers app, version and SHA-256.</li>
 * <li>{@code <app>.v<version>.served}: the bundle paths served from that version, one per line.</li>
 * <li>{@code <app>.live}: JSON {@code {"format":"qaldy-live/2","record","app","version","sha256","seal","learnedAtMs"}}:
 *     {@code record} is the control plane's signed live record ({@code dev.qaldy.contract.live}: app,
 *     version, SHA-256, live-clock sequence), the truth of the file; the other members are the
 *     format-1 record, which hosts from before issue 16 still read. A tombstone (the app is gone or
 *     has nothing live) is {@code {"format","app","record","learnedAtMs"}}. A file without a
 *     verifiable record (format 1, forged) is refused.</li>
 * </ul>
 * Issue 16, item 4: anyone who can write this directory could otherwise put an older sealed live
 * answer back and roll an app back during an outage. This host keeps, outside the directory, the
 * highest live-clock sequence it saw per app ({@link LiveMarks}) and refuses a record below it.
 * Copies and records are written to a temporary file in the directory, forced to disk and renamed
 * into place atomically, so a crash never leaves a half copy under a real name. Beyond the size
 * bound the least recently used copies go first.
 */
@ApplicationScoped
public class DataCentreCache {

    static final String MAGIC = "qaldy-dc-copy/1";
    static final String BUNDLE = ".bundle";
    static final String SERVED = ".served";
    static final String LIVE = ".live";
    static final String TEMP_PREFIX = ".tmp-";
    static final int MAX_HEADER_BYTES = 8 * 1024;
    static final int MAX_RECORD_BYTES = 16 * 1024;
    /** Bound on one served-files index; paths past it are simply not recorded (a 503 in an outage). */
    static final int MAX_SERVED_BYTES = 1024 * 1024;
    static final int MAX_SERVED_PATH = 2048;
    /** An unchanged live answer is written again at most this often, so its learned-at stays current. */
    static final Duration RECORD_REFRESH = Duration.ofMinutes(1);
    /** A record learned later than now plus this is not believed: host clocks differ a little, not more. */
    static final Duration MAX_CLOCK_SKEW = Duration.ofMinutes(1);
    /** Temporary files older than this were left by a crash; younger ones may be another host's write. */
    static final Duration ABANDONED = Duration.ofHours(1);
    static final int MAX_APPS_REMEMBERED = 100_000;
    /** What a live file's {@code format} says (format 1 had none and no signed record). */
    static final String LIVE_FORMAT = "qaldy-live/2";
    /** The marks file's name in the host's own folder. */
    static final String MARKS_FILE = "live-marks.json";
    private static final Pattern SHA256 = Pattern.compile("[0-9a-f]{64}");
    private static final Pattern JWS = Pattern.compile("[A-Za-z0-9_.-]{1,4096}");
    private static final Pattern STEM = Pattern.compile("[a-z0-9-]{1,63}\\.v[0-9]{1,18}");

    private Path directory;
    private LiveMarks marks;
    private long maxBytes;
    private long maxBundleBytes;
    private CellCredentials credentials;
    private Clock clock;
    private Logger log;
    /** The live answer this host last wrote per app: an unchanged one is rewritten once a minute at most. */
    private Cache<String, LiveRecord> written;

    protected DataCentreCache() {
    }

    /**
     * @param directory      the shared directory; default {@code <qaldy.var>/dc-cache}
     * @param marksDir       this host's own folder for its live-record marks ({@link LiveMarks}), never
     *                       the shared one; default {@code <qaldy.var>/runtime-live}
     * @param maxBytes       bound on the copies and indexes in the directory, in bytes
     * @param maxBundleBytes the largest copy read back, in bytes (the control plane's bundle bound)
     */
    @Inject
    public DataCentreCache(@ConfigProperty(name = "qaldy.runtime.dc-cache") Optional<String> directory,
            @ConfigProperty(name = "qaldy.runtime.live-marks-dir") Optional<String> marksDir,
            @ConfigProperty(name = "qaldy.var", defaultValue = "var") String var,
            @ConfigProperty(name = "qaldy.runtime.dc-cache-max-bytes", defaultValue = "1073741824") long maxBytes,
            @ConfigProperty(name = "qaldy.runtime.max-bundle-bytes", defaultValue = "52428800") long maxBundleBytes,
            CellCredentials credentials, Clock clock, Logger log) {
        this(directory.filter(d -> !d.isBlank()).map(Path::of).orElseGet(() -> Path.of(var, "dc-cache")),
                marksDir.filter(d -> !d.isBlank()).map(Path::of).orElseGet(() -> Path.of(var, "runtime-live")),
                maxBytes, maxBundleBytes, credentials, clock, log);
        log.log(Level.INFO, "Data-centre cache in {0}, bounded to {1} bytes; this host''s live-record marks in {2}",
                new Object[] {this.directory, Long.toString(maxBytes), marks.file()});
    }

    public DataCentreCache(Path directory, Path marksDir, long maxBytes, long maxBundleBytes, CellCredentials credentials,
            Clock clock, Logger log) {
        this.directory = directory.toAbsolutePath().normalize();
        if (marksDir.toAbsolutePath().normalize().startsWith(this.directory)) {
            throw new IllegalArgumentException("the live-record marks must not be kept in the shared cache " + directory);
        }
        this.marks = new LiveMarks(marksDir.resolve(MARKS_FILE), LiveMarks.MAX_APPS, log);
        this.maxBytes = maxBytes;
        this.maxBundleBytes = Math.min(maxBundleBytes, Integer.MAX_VALUE - 16L);
        this.credentials = credentials;
        this.clock = clock;
        this.log = log;
        this.written = Caffeine.newBuilder().maximumSize(MAX_APPS_REMEMBERED).executor(Runnable::run).build();
    }

    public Path directory() {
        return directory;
    }

    /**
     * Keeps the sealed copy of a bundle just fetched from the control plane and verified. Failures
     * are logged, never thrown: serving does not depend on the copy.
     */
    public void keep(LiveVersion live, byte[] zip) {
        BundleKey key = live.key();
        try {
            Path target = bundleFile(key);
            if (!JWS.matcher(live.seal()).matches()) {
                throw new IllegalArgumentException("the seal is not a compact JWS");
            }
            Files.createDirectories(directory);
            byte[] header = (MAGIC + " " + zip.length + " " + live.sha256() + " " + live.seal() + "\n")
                    .getBytes(StandardCharsets.US_ASCII);
            if (holds(target, header, zip)) {
                // Another host (or this one before a restart) wrote it already: only mark it as used.
                touch(target);
                return;
            }
            writeAtomically(target, header, zip);
            touch(target);
            log.log(Level.FINE, "Wrote the data-centre copy of {0}", key);
            evictBeyondBound(target);
        } catch (IOException | RuntimeException e) {
            log.log(Level.WARNING, "Could not write the data-centre copy of {0}: {1}", new Object[] {key, e.toString()});
        }
    }

    /**
     * The bytes of the copy of {@code key}, if there is one whose seal is the cell's and names this
     * app and version, whose bytes hash to the sealed SHA-256, whose length is the header's, and —
     * when given — whose SHA-256 is {@code expectedSha256}. A copy failing any check is deleted and
     * logged (WARNING), and reads as absent: an outage then gets 503, never tampered code.
     */
    public Optional<byte[]> read(BundleKey key, String expectedSha256) {
        Path file = bundleFile(key);
        Header header;
        byte[] zip;
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
            long size = channel.size();
            header = header(channel);
            if (header == null) {
                return refuse(file, "no readable header");
            }
            if (header.length() > maxBundleBytes) {
                return refuse(file, "its header promises " + header.length() + " bytes, over the bundle bound");
            }
            if (header.size() + header.length() != size) {
                return refuse(file, "the file has " + size + " bytes where its header promises "
                        + (header.size() + header.length()) + " (truncated or extended)");
            }
            zip = new byte[(int) header.length()];
            ByteBuffer buffer = ByteBuffer.wrap(zip);
            while (buffer.hasRemaining()) {
                if (channel.read(buffer, header.size() + buffer.position()) < 0) {
                    return refuse(file, "it ended early");
                }
            }
        } catch (NoSuchFileException e) {
            return Optional.empty();
        } catch (IOException e) {
            log.log(Level.WARNING, "Cannot read the data-centre copy {0}: {1}", new Object[] {file, e.toString()});
            return Optional.empty();
        }
        try {
            BundleVerifier.verify(key, header.sha256(), header.seal(), zip, credentials.publicKeys());
        } catch (BundleRefusedException e) {
            return refuse(file, e.getMessage());
        }
        if (expectedSha256 != null && !expectedSha256.equals(header.sha256())) {
            return refuse(file, "its SHA-256 " + header.sha256() + " is not the live answer's " + expectedSha256);
        }
        touch(file);
        return Optional.of(zip);
    }

    /** Deletes the copy of one version and its served-files index (the control plane says it is gone). */
    public void forget(BundleKey key) {
        delete(bundleFile(key));
        delete(servedFile(key));
    }

    /** Deletes every file of {@code app}: copies, served-files indexes and the live record. */
    public void forget(String app) {
        checked(app);
        written.invalidate(app);
        if (!Files.isDirectory(directory)) {
            return;
        }
        int deleted = 0;
        try (DirectoryStream<Path> files = Files.newDirectoryStream(directory, app + ".*")) {
            for (Path file : files) {
                deleted += delete(file) ? 1 : 0;
            }
        } catch (IOException e) {
            log.log(Level.WARNING, "Cannot list the data-centre cache to forget {0}: {1}", new Object[] {app, e.toString()});
        }
        if (deleted > 0) {
            log.log(Level.INFO, "Deleted {0} data-centre file(s) of {1}: the control plane says it is gone",
                    new Object[] {deleted, app});
        }
    }

    /**
     * The control plane says {@code app} is gone or has nothing live: deletes its files, then keeps
     * {@code tombstone} (its signed answer, may be null) as the app's live record, unless it does not
     * verify or a newer record is there already. Its sequence raises this host's mark, and tells how
     * far the control plane's clock is ({@link LiveMarks#clockSeen}). Failures are logged, never thrown.
     */
    public void gone(String app, String tombstone) {
        forget(app);
        if (tombstone == null) {
            return;
        }
        LiveStatement statement;
        try {
            statement = LiveStatements.verify(tombstone, credentials.publicKeys());
        } catch (InvalidTokenException e) {
            log.log(Level.WARNING, "The control plane''s tombstone for {0} does not verify: {1}; not kept", new Object[] {app, e.getMessage()});
            return;
        }
        if (!statement.gone() || !statement.app().equals(app)) {
            log.log(Level.WARNING, "The control plane''s tombstone for {0} is not one: {1}; not kept", new Object[] {app, statement});
            return;
        }
        marks.raise(app, statement.sequence());
        marks.clockSeen(statement.sequence());
        String json = Json.createObjectBuilder().add("format", LIVE_FORMAT).add("app", app).add("record", tombstone)
                .add("learnedAtMs", clock.millis()).build().toString();
        keepRecord(app, statement, json);
    }

    /**
     * Keeps the control plane's live answer with its signed record, so that a host restarted during
     * an outage finds it; an answer without a record (a control plane from before issue 16) or whose
     * record does not verify or name this version is not kept (logged). The record's sequence raises
     * this host's mark. An unchanged answer is rewritten at most once a minute (so its signed
     * learned-at lags by that much at most, which only ends its use sooner); writing it marks its
     * copy as recently used. A newer record another host already wrote is left in place. Failures
     * are logged, never thrown.
     */
    public void remember(LiveVersion live, Instant learnedAt) {
        String app = live.app();
        LiveRecord last = written.getIfPresent(app);
        if (last != null && last.live() != null && last.live().sameCode(live)
                && learnedAt.isBefore(last.learnedAt().plus(RECORD_REFRESH))) {
            return;
        }
        if (live.record() == null) {
            log.log(Level.FINE, "The live answer for {0} carries no signed record: nothing kept for outages", app);
            return;
        }
        LiveStatement statement;
        try {
            statement = LiveStatements.verify(live.record(), credentials.publicKeys());
        } catch (InvalidTokenException e) {
            log.log(Level.WARNING, "The live record for {0} does not verify: {1}; not kept", new Object[] {app, e.getMessage()});
            return;
        }
        if (statement.gone() || !statement.app().equals(app) || statement.version() != live.version()
                || !statement.sha256().equals(live.sha256())) {
            log.log(Level.WARNING, "The live record for {0} v{1} names another: {2}; not kept",
                    new Object[] {app, live.version(), statement});
            return;
        }
        marks.raise(app, statement.sequence());
        String json = Json.createObjectBuilder()
                .add("format", LIVE_FORMAT)
                .add("record", live.record())
                .add("app", app)
                .add("version", live.version())
                .add("sha256", live.sha256())
                .add("seal", live.seal())
                .add("learnedAtMs", learnedAt.toEpochMilli())
                .build().toString();
        if (keepRecord(app, statement, json)) {
            written.put(app, new LiveRecord(app, live, statement.sequence(), learnedAt));
            touch(bundleFile(live.key()));
        }
    }

    /**
     * Writes a verified record over the app's live file unless the file holds a verified newer one
     * (a higher sequence, or the same signed later; the same record is written again). True when the file now holds this one or a newer.
     */
    private boolean keepRecord(String app, LiveStatement statement, String json) {
        try {
            Path file = liveFile(app);
            Files.createDirectories(directory);
            LiveStatement existing = statementIn(file);
            if (existing != null && existing.app().equals(app) && (existing.sequence() > statement.sequence()
                    || existing.sequence() == statement.sequence() && existing.issuedAt().isAfter(statement.issuedAt()))) {
                return true;
            }
            writeAtomically(file, json.getBytes(StandardCharsets.UTF_8));
            return true;
        } catch (IOException | RuntimeException e) {
            log.log(Level.WARNING, "Could not write the live record of {0}: {1}", new Object[] {app, e.toString()});
            return false;
        }
    }

    /** The verified statement of a live file, or null when there is none or it does not verify. */
    private LiveStatement statementIn(Path file) throws IOException {
        try {
            JsonObject json = jsonIn(file);
            return json == null ? null : LiveStatements.verify(json.getString("record"), credentials.publicKeys());
        } catch (InvalidTokenException | IllegalStateException | ClassCastException | NullPointerException e) {
            return null;
        }
    }

    /**
     * The last live record a host of this data centre kept for {@code app}: a live version or a
     * tombstone, if its signature is the cell's and names this app, its seal (for a version) names
     * the same version and SHA-256, it was not signed in the future, and its live-clock sequence is
     * not below this host's mark for the app. A record failing a check is deleted and logged
     * (WARNING) — one below the mark too, so the shared cache loses the rolled-back record; one this
     * host cannot judge (no mark of its own for the app, below the floor: {@link LiveMarks}) is
     * refused and left for hosts that can. A record taken raises the mark. How old it may be is the
     * caller's rule.
     */
    public Optional<LiveRecord> liveRecord(String app) {
        Path file = liveFile(app);
        JsonObject json;
        try {
            json = jsonIn(file);
        } catch (IOException e) {
            log.log(Level.WARNING, "Cannot read the live record {0}: {1}", new Object[] {file, e.toString()});
            return Optional.empty();
        } catch (IllegalStateException e) {
            return refuse(file, e.getMessage());
        }
        if (json == null) {
            return Optional.empty();
        }
        if (!(json.get("record") instanceof JsonString signed)) {
            return refuse(file, "it holds no signed record (format 1, from before issue 16, or forged)");
        }
        LiveStatement statement;
        try {
            statement = LiveStatements.verify(signed.getString(), credentials.publicKeys());
        } catch (InvalidTokenException e) {
            return refuse(file, "its record does not verify: " + e.getMessage());
        }
        if (!statement.app().equals(app)) {
            return refuse(file, "it is the record of " + statement.app());
        }
        if (statement.issuedAt().isAfter(clock.instant().plus(MAX_CLOCK_SKEW))) {
            return refuse(file, "it was signed in the future, at " + statement.issuedAt());
        }
        LiveVersion live = null;
        if (!statement.gone()) {
            if (!(json.get("seal") instanceof JsonString seal)) {
                return refuse(file, "its version has no seal");
            }
            live = new LiveVersion(app, statement.version(), statement.sha256(), seal.getString(), LiveVersion.NO_ACCOUNT,
                    signed.getString());
            try {
                BundleVerifier.verifySeal(live.key(), live.sha256(), live.seal(), credentials.publicKeys());
            } catch (BundleRefusedException e) {
                return refuse(file, e.getMessage());
            }
        }
        switch (marks.judge(app, statement.sequence())) {
            case OLDER:
                return refuse(file, "it is live-clock " + statement.sequence() + ", older than a record this host saw"
                        + " (a rolled-back record written into the shared cache?)");
            case UNPROVEN:
                log.log(Level.FINE, "Not taking the live record of {0} (live-clock {1}): this host cannot tell whether it is"
                        + " the newest", new Object[] {app, Long.toString(statement.sequence())});
                return Optional.empty();
            default:
                marks.raise(app, statement.sequence());
                return Optional.of(new LiveRecord(app, live, statement.sequence(), statement.issuedAt()));
        }
    }

    /** The bundle paths that any host of this data centre recorded as served from {@code key}. */
    public Set<String> servedPaths(BundleKey key) {
        byte[] bytes;
        try (InputStream in = Files.newInputStream(servedFile(key))) {
            bytes = in.readNBytes(MAX_SERVED_BYTES);
        } catch (NoSuchFileException e) {
            return Set.of();
        } catch (IOException e) {
            log.log(Level.WARNING, "Cannot read the served files of {0}: {1}", new Object[] {key, e.toString()});
            return Set.of();
        }
        Set<String> paths = new HashSet<>();
        int start = 0;
        for (int i = 0; i < bytes.length; i++) {
            if (bytes[i] == '\n') {
                String path = new String(bytes, start, i - start, StandardCharsets.UTF_8);
                if (isRecordable(path)) {
                    paths.add(path);
                }
                start = i + 1;
            }
        }
        // A last line without its newline is a write cut short: not recorded.
        return paths;
    }

    /**
     * Records that {@code path} of {@code key} was served: one line appended in a single write and
     * forced to disk. Failures are logged: a path missing here only means a 503 during an outage.
     */
    public void recordServed(BundleKey key, String path) {
        if (!isRecordable(path)) {
            return;
        }
        byte[] line = (path + "\n").getBytes(StandardCharsets.UTF_8);
        try {
            Files.createDirectories(directory);
            try (FileChannel channel = FileChannel.open(servedFile(key), StandardOpenOption.CREATE,
                    StandardOpenOption.WRITE, StandardOpenOption.APPEND)) {
                if (channel.size() + line.length > MAX_SERVED_BYTES) {
                    log.log(Level.FINE, "The served-files index of {0} is full", key);
                    return;
                }
                ByteBuffer buffer = ByteBuffer.wrap(line);
                while (buffer.hasRemaining()) {
                    channel.write(buffer);
                }
                channel.force(false);
            }
        } catch (IOException | RuntimeException e) {
            log.log(Level.WARNING, "Could not record a served file of {0}: {1}", new Object[] {key, e.toString()});
        }
    }

    static boolean isRecordable(String path) {
        if (path.isEmpty() || path.length() > MAX_SERVED_PATH) {
            return false;
        }
        for (int i = 0; i < path.length(); i++) {
            char c = path.charAt(i);
            if (c < 0x20 || c == 0x7f) {
                return false;
            }
        }
        return true;
    }

    Path bundleFile(BundleKey key) {
        return directory.resolve(stem(key) + BUNDLE);
    }

    Path servedFile(BundleKey key) {
        return directory.resolve(stem(key) + SERVED);
    }

    Path liveFile(String app) {
        return directory.resolve(checked(app) + LIVE);
    }

    private static String stem(BundleKey key) {
        return checked(key.app()) + ".v" + key.version();
    }

    private static String checked(String app) {
        if (!AppLabel.valid(app)) {
            throw new IllegalArgumentException("not an app name: " + app.replaceAll("\\p{Cntrl}", "?"));
        }
        return app;
    }

    /** A copy's header line. {@code size} counts its bytes with the newline. */
    record Header(long length, String sha256, String seal, int size) {

        /** The header, or null when the line is not one. */
        static Header parse(String line, int size) {
            String[] parts = line.split(" ", -1);
            if (parts.length != 4 || !parts[0].equals(MAGIC) || !parts[1].matches("[0-9]{1,18}")
                    || !SHA256.matcher(parts[2]).matches() || !JWS.matcher(parts[3]).matches()) {
                return null;
            }
            return new Header(Long.parseLong(parts[1]), parts[2], parts[3], size);
        }
    }

    /** The header of a copy, or null when there is none (no newline within the bound, or not a header). */
    private static Header header(FileChannel channel) throws IOException {
        ByteBuffer buffer = ByteBuffer.allocate((int) Math.min(MAX_HEADER_BYTES, channel.size()));
        while (buffer.hasRemaining() && channel.read(buffer, buffer.position()) > 0) {
        }
        byte[] bytes = buffer.array();
        for (int i = 0; i < buffer.position(); i++) {
            if (bytes[i] == '\n') {
                return Header.parse(new String(bytes, 0, i, StandardCharsets.US_ASCII), i + 1);
            }
        }
        return null;
    }

    /** True when {@code file} holds exactly these bytes (a damaged copy is then rewritten, not kept). */
    private static boolean holds(Path file, byte[] header, byte[] zip) {
        try (InputStream in = Files.newInputStream(file)) {
            return Files.size(file) == (long) header.length + zip.length && startsWith(in, header) && startsWith(in, zip);
        } catch (IOException e) {
            return false;
        }
    }

    private static boolean startsWith(InputStream in, byte[] expected) throws IOException {
        byte[] buffer = new byte[64 * 1024];
        for (int offset = 0; offset < expected.length; ) {
            int n = in.readNBytes(buffer, 0, Math.min(buffer.length, expected.length - offset));
            if (n <= 0 || !Arrays.equals(buffer, 0, n, expected, offset, offset + n)) {
                return false;
            }
            offset += n;
        }
        return true;
    }

    /**
     * The JSON object in a live file, unverified; null when there is no file.
     *
     * @throws IllegalStateException when the file is not a JSON object within the bound
     */
    private static JsonObject jsonIn(Path file) throws IOException {
        byte[] bytes;
        try (InputStream in = Files.newInputStream(file)) {
            bytes = in.readNBytes(MAX_RECORD_BYTES + 1);
        } catch (NoSuchFileException e) {
            return null;
        }
        if (bytes.length > MAX_RECORD_BYTES) {
            throw new IllegalStateException("over " + MAX_RECORD_BYTES + " bytes");
        }
        try (JsonReader reader = Json.createReader(new ByteArrayInputStream(bytes))) {
            return reader.readObject();
        } catch (JsonException e) {
            throw new IllegalStateException("not a live record: " + e.getClass().getSimpleName(), e);
        }
    }

    private void writeAtomically(Path target, byte[]... parts) throws IOException {
        Path temp = directory.resolve(TEMP_PREFIX + UUID.randomUUID());
        try {
            try (FileChannel channel = FileChannel.open(temp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
                for (byte[] part : parts) {
                    ByteBuffer buffer = ByteBuffer.wrap(part);
                    while (buffer.hasRemaining()) {
                        channel.write(buffer);
                    }
                }
                channel.force(true);
            }
            // rename(2): readers see the old file or the new one, never a part.
            Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE);
            forceDirectory();
        } finally {
            Files.deleteIfExists(temp);
        }
    }

    /** Makes the rename itself durable where the platform can (Linux can; some cannot open a directory). */
    private void forceDirectory() {
        try (FileChannel dir = FileChannel.open(directory, StandardOpenOption.READ)) {
            dir.force(true);
        } catch (IOException | UnsupportedOperationException e) {
            log.log(Level.FINE, "Cannot force the directory {0}: {1}", new Object[] {directory, e.toString()});
        }
    }

    /** Marks a file as used now (the least recently used copies are evicted first). */
    private void touch(Path file) {
        try {
            Files.setLastModifiedTime(file, FileTime.from(clock.instant()));
        } catch (IOException e) {
            log.log(Level.FINE, "Cannot touch {0}: {1}", new Object[] {file, e.toString()});
        }
    }

    private boolean delete(Path file) {
        try {
            return Files.deleteIfExists(file);
        } catch (IOException e) {
            log.log(Level.WARNING, "Cannot delete {0}: {1}", new Object[] {file, e.toString()});
            return false;
        }
    }

    private <T> Optional<T> refuse(Path file, String why) {
        boolean deleted = delete(file);
        log.log(Level.WARNING, "Refused the data-centre file {0}{1}: {2}",
                new Object[] {file.getFileName(), deleted ? " and deleted it" : "", why});
        return Optional.empty();
    }

    /** One version's files: its copy and its served-files index, evicted together. */
    private static final class Group {

        final List<Path> files = new ArrayList<>();
        long bytes;
        Instant lastUsed = Instant.MAX;
        boolean hasCopy;

        void add(Path file, BasicFileAttributes attributes, boolean copy) {
            files.add(file);
            bytes += attributes.size();
            Instant modified = attributes.lastModifiedTime().toInstant();
            if (copy) {
                lastUsed = modified;
                hasCopy = true;
            } else if (!hasCopy) {
                lastUsed = modified.isBefore(lastUsed) ? modified : lastUsed;
            }
        }
    }

    /** Deletes the least recently used versions' files until the directory is within its bound; never {@code keep}'s. */
    private void evictBeyondBound(Path keep) throws IOException {
        Map<String, Group> groups = new HashMap<>();
        long total = 0;
        Instant abandoned = clock.instant().minus(ABANDONED);
        try (DirectoryStream<Path> files = Files.newDirectoryStream(directory)) {
            for (Path file : files) {
                BasicFileAttributes attributes;
                try {
                    attributes = Files.readAttributes(file, BasicFileAttributes.class);
                } catch (NoSuchFileException e) {
                    continue;
                }
                if (!attributes.isRegularFile()) {
                    continue;
                }
                String name = file.getFileName().toString();
                if (name.startsWith(TEMP_PREFIX)) {
                    if (attributes.lastModifiedTime().toInstant().isBefore(abandoned)) {
                        delete(file);
                    }
                    continue;
                }
                total += attributes.size();
                String stem = stemOf(name);
                if (stem != null) {
                    groups.computeIfAbsent(stem, s -> new Group()).add(file, attributes, name.endsWith(BUNDLE));
                }
            }
        }
        if (total <= maxBytes) {
            return;
        }
        String kept = stemOf(keep.getFileName().toString());
        List<Map.Entry<String, Group>> oldestFirst = new ArrayList<>(groups.entrySet());
        oldestFirst.removeIf(e -> e.getKey().equals(kept));
        oldestFirst.sort(Comparator.comparing(e -> e.getValue().lastUsed));
        for (Map.Entry<String, Group> entry : oldestFirst) {
            if (total <= maxBytes) {
                break;
            }
            entry.getValue().files.forEach(this::delete);
            total -= entry.getValue().bytes;
            log.log(Level.INFO, "Evicted the data-centre copy {0}: the least recently used, and the cache is over {1} bytes",
                    new Object[] {entry.getKey(), Long.toString(maxBytes)});
        }
    }

    private static String stemOf(String name) {
        String stem = name.endsWith(BUNDLE) ? name.substring(0, name.length() - BUNDLE.length())
                : name.endsWith(SERVED) ? name.substring(0, name.length() - SERVED.length()) : null;
        return stem != null && STEM.matcher(stem).matches() ? stem : null;
    }
}
