package dev.qaldy.runtime.cap;

import com.nimbusds.jose.util.JSONObjectUtils;
import dev.qaldy.contract.files.KeptFile;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.text.ParseException;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Which account each app's server code counts against, as the control plane's live answers said
 * (an app's owner). Kept in memory and in {@code apps.json} of the runtime's cap directory, so a
 * host restarted during an outage still knows whose cap to check for code it serves from the
 * data-centre copy (whose records do not carry the account). At most {@link #MAX_APPS} apps.
 */
final class AppAccounts {

    static final int MAX_APPS = 100_000;
    static final String FILE = "apps.json";

    private final Path dir;
    private final Logger log;
    private final Map<String, Long> accounts = new ConcurrentHashMap<>();
    private volatile boolean dirty;

    /** @param dir the runtime's cap directory; null for memory only */
    AppAccounts(Path dir, Logger log) {
        this.dir = dir;
        this.log = log;
    }

    /** The account the control plane last named for {@code app}. */
    Optional<Long> of(String app) {
        return Optional.ofNullable(accounts.get(app));
    }

    /** Remembers the control plane's word: {@code app} counts against {@code accountId}; a change is written at once. */
    void learn(String app, long accountId) {
        if (accountId <= 0) {
            return;
        }
        Long before = accounts.get(app);
        if (before != null && before == accountId) {
            return;
        }
        if (before == null && accounts.size() >= MAX_APPS) {
            log.log(Level.WARNING, "runtime: cannot remember the account of {0}: {1} apps held", new Object[] {app, MAX_APPS});
            return;
        }
        accounts.put(app, accountId);
        dirty = true;
        flush(); // rare (an app's first answer, or a new owner), and a restart during an outage needs it
    }

    /**
     * Reads {@code apps.json}; a file that cannot be read is set aside as {@code apps.json.refused}
     * (one WARNING line) and its apps count as unknown until the API names their accounts again.
     */
    void load() {
        if (dir == null || !Files.exists(dir.resolve(FILE))) {
            return;
        }
        try {
            Map<String, Object> json = JSONObjectUtils.parse(Files.readString(dir.resolve(FILE), StandardCharsets.UTF_8), 8 * 1024 * 1024);
            json.forEach((app, id) -> {
                if (id instanceof Number number && number.longValue() > 0 && accounts.size() < MAX_APPS) {
                    accounts.put(app, number.longValue());
                }
            });
        } catch (IOException | ParseException | RuntimeException e) {
            accounts.clear();
            log.log(Level.WARNING, "runtime: cannot read {0}: {1}; {2}; its apps'' accounts count as unknown until the API names them",
                    new Object[] {dir.resolve(FILE), e.toString(), KeptFile.setAsideSaying(dir.resolve(FILE))});
        }
    }

    /** Writes the map if it changed (temp file, fsync, atomic move); failures are logged and tried again next time. */
    synchronized void flush() {
        if (dir == null || !dirty) {
            return;
        }
        dirty = false;
        try {
            KeptFile.write(dir.resolve(FILE), JSONObjectUtils.toJSONString(new TreeMap<>(accounts)).getBytes(StandardCharsets.UTF_8));
        } catch (IOException e) {
            dirty = true;
            log.log(Level.WARNING, "runtime: cannot write {0}: {1}", new Object[] {dir.resolve(FILE), e.toString()});
        }
    }
}
