package dev.qaldy.contract.cap;

import com.nimbusds.jose.util.JSONObjectUtils;
import dev.qaldy.contract.cap.AccountLedger.AckedChunk;
import dev.qaldy.contract.files.KeptFile;
import dev.qaldy.contract.keys.CellPublicKeys;
import dev.qaldy.contract.session.InvalidTokenException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.text.ParseException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import java.util.logging.Level;
import java.util.logging.Logger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The account ledgers on disk, {@code account-<id>.json}, written atomically ({@link KeptFile})
 * after the {@link HighWaterMarks}, so a mark is never behind a kept state. Format, version 1:
 * <pre>
 * {"v":1,"accountId":7,"state":"&lt;JWS or null&gt;",
 *  "open":{"&lt;app&gt;":[requests,cpuMs],…},
 *  "pending":null | {"batchId":"&lt;uuid&gt;","apps":{"&lt;app&gt;":[requests,cpuMs],…}},
 *  "acked":[[requests,cpuMs,sequence],…]}
 * </pre>
 */
final class AccountFiles {

    static final Pattern FILE = Pattern.compile("account-([1-9][0-9]{0,18})\\.json");
    /** Bytes. */
    static final int MAX_FILE_BYTES = 1024 * 1024;

    private final Path dir;
    private final CellPublicKeys keys;
    private final HighWaterMarks marks;
    private final Logger log;

    /** @param dir where the files are; null to keep nothing */
    AccountFiles(Path dir, CellPublicKeys keys, HighWaterMarks marks, Logger log) {
        this.dir = dir;
        this.keys = keys;
        this.marks = marks;
        this.log = log;
    }

    boolean kept() {
        return dir != null;
    }

    /**
     * Reads the marks, then every account file, verifying each state again and raising the marks to it.
     * A file that does not read or verify is set aside (one WARNING); leftover {@code .tmp} files are deleted.
     *
     * @return how many accounts were read
     */
    int load(Consumer<AccountLedger> into) {
        if (dir == null) {
            return 0;
        }
        int read = 0;
        try {
            Files.createDirectories(dir);
            marks.load();
            try (DirectoryStream<Path> files = Files.newDirectoryStream(dir)) {
                for (Path file : files) {
                    String name = file.getFileName().toString();
                    if (name.endsWith(".tmp")) {
                        Files.deleteIfExists(file); // a write that never finished
                        continue;
                    }
                    Matcher matcher = FILE.matcher(name);
                    if (!matcher.matches()) {
                        continue;
                    }
                    long id = Long.parseLong(matcher.group(1));
                    try {
                        AccountLedger account = read(file, id);
                        into.accept(account);
                        marks.raise(id, account.sequence());
                        read++;
                    } catch (IOException | RuntimeException | InvalidTokenException | ParseException e) {
                        log.log(Level.WARNING, "cap: refused the kept file {0}: {1}; {2}; account {3} counts as unknown until its"
                                + " state is fetched", new Object[] {file, e.toString(), KeptFile.setAsideSaying(file), id});
                    }
                }
            }
        } catch (IOException e) {
            log.log(Level.WARNING, "cap: cannot read the cap directory {0}: {1}", new Object[] {dir, e.toString()});
        }
        try {
            marks.write(); // marks learned from the account files (a cell older than the marks file, or a lost one)
        } catch (IOException e) {
            log.log(Level.WARNING, "cap: cannot write the high-water marks to {0}: {1}", new Object[] {dir, e.toString()});
        }
        return read;
    }

    /**
     * @param strict true to throw at the first failure, false to log it (retried next time)
     * @throws UncheckedIOException when {@code strict} and an account cannot be written
     */
    void writeAll(Collection<AccountLedger> accounts, boolean strict) {
        if (dir == null) {
            return;
        }
        for (AccountLedger account : accounts) {
            try {
                write(account);
            } catch (IOException e) {
                if (strict) {
                    throw new UncheckedIOException("cannot keep account " + account.id + " in " + dir, e);
                }
                warnUnwritten(account, e);
            }
        }
    }

    void writeQuietly(AccountLedger account) {
        try {
            write(account);
        } catch (IOException e) {
            warnUnwritten(account, e);
        }
    }

    private void warnUnwritten(AccountLedger account, IOException e) {
        log.log(Level.WARNING, "cap: cannot write account {0} to {1}: {2}", new Object[] {account.id, dir, e.toString()});
    }

    /** Writes after the marks; one account's writes are ordered by its {@code writing} lock. */
    private void write(AccountLedger account) throws IOException {
        if (dir == null) {
            return;
        }
        marks.write();
        synchronized (account.writing) {
            byte[] bytes;
            long version;
            synchronized (account) {
                if (!account.dirty()) {
                    return;
                }
                bytes = JSONObjectUtils.toJSONString(json(account)).getBytes(StandardCharsets.UTF_8);
                version = account.version();
            }
            KeptFile.write(dir.resolve("account-" + account.id + ".json"), bytes);
            synchronized (account) {
                account.wrote(version);
            }
        }
    }

    /** Under the account's monitor; the format is in the class doc. */
    static Map<String, Object> json(AccountLedger account) {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("v", 1L);
        json.put("accountId", account.id);
        json.put("state", account.jws());
        json.put("open", usageJson(account.open()));
        Map<String, Object> pending = null;
        if (account.pendingBatch() != null) {
            pending = new LinkedHashMap<>();
            pending.put("batchId", account.pendingBatch().toString());
            pending.put("apps", usageJson(account.pending()));
        }
        json.put("pending", pending);
        List<List<Long>> chunks = new ArrayList<>();
        account.acked().forEach(chunk -> chunks.add(List.of(chunk.usage().requests(), chunk.usage().cpuMs(), chunk.sequence())));
        json.put("acked", chunks);
        return json;
    }

    private static Map<String, List<Long>> usageJson(Map<String, Usage> usage) {
        Map<String, List<Long>> json = new TreeMap<>();
        usage.forEach((app, sum) -> json.put(app, List.of(sum.requests(), sum.cpuMs())));
        return json;
    }

    private AccountLedger read(Path file, long id) throws IOException, InvalidTokenException, ParseException {
        if (Files.size(file) > MAX_FILE_BYTES) {
            throw new IOException("over " + MAX_FILE_BYTES + " bytes");
        }
        Map<String, Object> json = JSONObjectUtils.parse(Files.readString(file, StandardCharsets.UTF_8), MAX_FILE_BYTES);
        if (whole(json.get("accountId")) != id) {
            throw new IOException("it is the file of another account");
        }
        AccountLedger account = new AccountLedger(id);
        if (json.get("state") instanceof String jws) {
            CapState state = CapStates.verify(jws, keys);
            if (state.accountId() != id) {
                throw new InvalidTokenException("its state is account " + state.accountId() + "'s");
            }
            account.take(jws, state);
        }
        readUsage(json.get("open"), (app, usage) -> account.count(app, usage.requests(), usage.cpuMs()));
        if (json.get("pending") instanceof Map<?, ?> pending && pending.get("batchId") instanceof String batch) {
            UUID batchId = UUID.fromString(batch);
            readUsage(pending.get("apps"), (app, usage) -> account.restorePending(batchId, app, usage));
        }
        if (json.get("acked") instanceof List<?> acked) {
            for (Object chunk : acked) {
                if (chunk instanceof List<?> values && values.size() == 3) {
                    Usage usage = new Usage(whole(values.get(0)), whole(values.get(1)));
                    account.restoreAcked(new AckedChunk(whole(values.get(2)), usage));
                }
            }
        }
        account.wrote(account.version());
        return account;
    }

    private static void readUsage(Object value, BiConsumer<String, Usage> into) {
        if (value instanceof Map<?, ?> apps) {
            for (Map.Entry<?, ?> entry : apps.entrySet()) {
                if (entry.getKey() instanceof String app && entry.getValue() instanceof List<?> usage && usage.size() == 2) {
                    into.accept(app, new Usage(whole(usage.get(0)), whole(usage.get(1))));
                }
            }
        }
    }

    private static long whole(Object value) {
        if (value instanceof Number number && number.doubleValue() == Math.rint(number.doubleValue())
                && number.doubleValue() >= 0) {
            return number.longValue();
        }
        throw new IllegalArgumentException("not a whole, non-negative number: " + value);
    }
}
