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
 * The highest cap-state sequence the edge ever took per account, in its own file ({@value #FILE})
 * and never lowered (issue 16: with only the account file as guard, deleting it let an older state
 * back in). In memory only when no directory is given.
 */
final class HighWaterMarks {

    static final String FILE = "high-water-marks.json";
    /** Bytes (about 40 an account). */
    static final long MAX_FILE_BYTES = 64L * 1024 * 1024;

    private final Path file;
    private final Logger log;
    private final ConcurrentHashMap<Long, Long> marks = new ConcurrentHashMap<>();
    /** Orders writes of the file. */
    private final Object writing = new Object();
    /** Guarded by {@link #writing}. */
    private long version;
    private long written;

    /** @param dir null to keep the marks in memory only */
    HighWaterMarks(Path dir, Logger log) {
        this.file = dir == null ? null : dir.resolve(FILE);
        this.log = log;
    }

    /** 0 when none. */
    long of(long accountId) {
        return marks.getOrDefault(accountId, 0L);
    }

    /** Never lowers; true when it rose. */
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

    /** Reads the file; one that does not parse is set aside (WARNING) and the account files give the marks. */
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
