package dev.qaldy.contract.cap;

import com.nimbusds.jose.util.JSONObjectUtils;
import dev.qaldy.contract.files.KeptFile;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.text.ParseException;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The highest cap-state sequence the edge ever took, per account, kept in a file of its own
 * ({@value #FILE} beside the account files, written atomically) and never lowered (issue 16: the
 * rollback guard lived only in {@code account-<id>.json}; with that file deleted, an older signed
 * state of the period was taken again and an app over its cap was served). A state below its
 * account's mark is refused even when the account's own file is gone. In memory only when no
 * directory is given.
 */
final class HighWaterMarks {

    /** The file's name in the keeper's directory. */
    static final String FILE = "high-water-marks.json";
    /** Largest file read, bytes (about 40 bytes an account). */
    static final long MAX_FILE_BYTES = 64L * 1024 * 1024;

    private final Path file;
    private final Logger log;
    private final ConcurrentHashMap<Long, Long> marks = new ConcurrentHashMap<>();
    /** Orders writes of the file; the newest content wins. */
    private final Object writing = new Object();
    /** Changes made and written; guarded by {@link #writing}. */
    private long version;
    private long written;

    /** @param dir the keeper's directory, or null to keep the marks in memory only */
    HighWaterMarks(Path dir, Logger log) {
        this.file = dir == null ? null : dir.resolve(FILE);
        this.log = log;
    }

    /** The account's mark: the highest sequence taken for it, 0 when none. */
    long of(long accountId) {
        return marks.getOrDefault(accountId, 0L);
    }

    /** Raises the account's mark to {@code sequence} in memory (never lowers it); true when it rose. */
    boolean raise(long accountId, long sequence) {
        boolean[] rose = {false};
        marks.compute(accountId, (id, held) -> {
            if (held == null || sequence > held) {
                rose[0] = true;
                return sequence;
            }
            return held;
        });
        if (rose[0]) {
            synchronized (writing) {
                version++;
            }
        }
        return rose[0];
    }

    /** Writes the file when a mark rose since it was last written. */
    void write() throws IOException {
        if (file == null) {
            return;
        }
        synchronized (writing) {
            if (version == written) {
                return;
            }
            long snapshot = version;
            Map<String, Object> json = new TreeMap<>();
            Map<String, Object> byAccount = new TreeMap<>();
            marks.forEach((account, mark) -> byAccount.put(Long.toString(account), mark));
            json.put("marks", byAccount);
            KeptFile.write(file, JSONObjectUtils.toJSONString(json).getBytes(StandardCharsets.UTF_8));
            written = snapshot;
        }
    }

    /**
     * Reads the file. One that cannot be read or parsed is set aside (one WARNING line): the marks
     * then come from the account files that load, and an account whose file is gone as well counts
     * as unknown until a state for it is fetched.
     *
     * @return how many marks were read
     */
    int load() {
        if (file == null || !Files.exists(file)) {
            return 0;
        }
        try {
            if (Files.size(file) > MAX_FILE_BYTES) {
                throw new IOException("over " + MAX_FILE_BYTES + " bytes");
            }
            Map<String, Object> json = JSONObjectUtils.parse(Files.readString(file, StandardCharsets.UTF_8), (int) MAX_FILE_BYTES);
            if (!(json.get("marks") instanceof Map<?, ?> byAccount)) {
                throw new IOException("it holds no marks");
            }
            int read = 0;
            for (Map.Entry<?, ?> entry : byAccount.entrySet()) {
                long account = Long.parseLong(String.valueOf(entry.getKey()));
                if (!(entry.getValue() instanceof Number mark) || account < 1 || mark.longValue() < 0) {
                    throw new IOException("a mark is not a whole number: " + entry);
                }
                marks.merge(account, mark.longValue(), Math::max);
                read++;
            }
            return read;
        } catch (IOException | ParseException | RuntimeException e) {
            marks.clear();
            log.log(Level.WARNING, "cap: refused the kept high-water marks {0}: {1}; {2}; the marks are taken from the account files",
                    new Object[] {file, e.toString(), KeptFile.setAsideSaying(file)});
            return 0;
        }
    }
}
