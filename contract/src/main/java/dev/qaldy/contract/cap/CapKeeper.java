package dev.qaldy.contract.cap;

import com.nimbusds.jose.util.JSONObjectUtils;
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
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.logging.Level;
import java.util.logging.Logger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What the edge (the gate, the runtime host) knows about every account's spending: the last cap
 * state it verified, and the usage it counted itself that the control plane has not billed yet.
 * Kept in memory and, when a directory is given, on local disk (one file per account, written
 * atomically: temp file, fsync, atomic move), so a restart during an outage neither forgets the
 * cap nor loses or resets the usage counted since.
 *
 * <p>The rules (seed: "apps still go to sleep at the cap with no API at all"):
 * <ul>
 * <li>A state is taken only when its signature is the cell's, its sequence is above the one held
 * for the account (and not below the highest ever taken for it, {@link HighWaterMarks}, kept in a
 * file of its own, so deleting the account's file does not let an older state back in), its period is not over and it was not signed in the future (both with
 * {@code leeway} for clock skew). Anything else is refused and logged at WARNING, and the last
 * good state stays.
 * <li>The app sleeps when spent (from the state) + counted here ≥ cap. A held state whose period
 * is over still applies: a state that looks expired is never read as "no cap"; only a new state
 * (a new period, a raised cap) wakes the account.
 * <li>An account the edge never received a state for is {@link Verdict.Unknown}: the caller fetches
 * it, or refuses (503) while the API is down.
 * <li>"Counted here" is tracked precisely: usage not yet reported, usage reported in a batch that
 * was not acknowledged, and usage acknowledged at a sequence the held state does not reach yet.
 * A state with that sequence or a higher one already includes it.
 * </ul>
 * Usage goes to the control plane in batches with a stable id, sealed to disk before they are sent
 * and kept until acknowledged: at least once, and the control plane bills a batch id once.
 */
public final class CapKeeper {

    /** Files of this keeper: {@code account-<id>.json}. */
    static final Pattern FILE = Pattern.compile("account-([1-9][0-9]{0,18})\\.json");
    /** Largest account file read, in bytes. */
    static final int MAX_FILE_BYTES = 1024 * 1024;
    /** Most apps counted per account before new ones are folded into one bucket. */
    static final int MAX_APPS_PER_ACCOUNT = 1000;
    /** Acknowledged chunks kept per account; older ones merge (counting them a little longer, never less). */
    static final int MAX_ACKED_CHUNKS = 64;
    /** Retry-After while an account sleeps on a state whose period is over (the API decides the rest). */
    public static final Duration RETRY_FLOOR = Duration.ofSeconds(30);

    /** Why a state was refused. */
    public enum Refusal {
        /** Not the cell's signature, not a cap state, or unreadable. */
        UNVERIFIABLE,
        /** Its sequence is not above the one held for the account (a replay or a reordering). */
        OLDER_SEQUENCE,
        /** Its period ended (more than the leeway ago). */
        PERIOD_OVER,
        /** Signed further in the future than the leeway allows. */
        FROM_THE_FUTURE,
        /** The keeper holds as many accounts as it may. */
        FULL;

        /** {@code older-sequence}, … */
        public String slug() {
            return name().toLowerCase(java.util.Locale.ROOT).replace('_', '-');
        }
    }

    /** What happened to an offered state. */
    public sealed interface Offer {

        /** Now held for its account. */
        record Accepted(CapState state) implements Offer {
        }

        /** The same change as the one held (signed again): nothing to do. */
        record AlreadyHeld(CapState state) implements Offer {
        }

        /** Refused; the last good state stays. */
        record Refused(Refusal reason, String detail) implements Offer {
        }
    }

    /** May the account's apps be served. */
    public sealed interface Verdict {

        /** Under the cap. */
        record Awake(CapState state, long unbilledMillicents) implements Verdict {
        }

        /** At or over the cap: asleep until {@code retryAfter} from now (the next period), or a new state. */
        record Asleep(CapState state, long unbilledMillicents, Duration retryAfter) implements Verdict {
        }

        /** No state was ever received for the account: the edge cannot know its cap. */
        record Unknown(long accountId) implements Verdict {
        }
    }

    /** One line of a usage report. */
    public record UsageItem(String app, long requests, long cpuMs) {
    }

    /** A usage report: the same id every time it is sent, until acknowledged. */
    public record UsageBatch(UUID batchId, List<UsageItem> items) {

        public UsageBatch {
            Objects.requireNonNull(batchId, "batchId");
            items = List.copyOf(items);
        }
    }

    /** One account as the keeper holds it, for views and logs. */
    public record Held(long accountId, CapState state, long unbilledRequests, long unbilledCpuMs,
            long unbilledMillicents, boolean asleep, UUID pendingBatch) {
    }

    private final CellPublicKeys keys;
    private final Clock clock;
    private final Duration leeway;
    private final Path dir;
    private final Logger log;
    private final int maxAccounts;
    private final ConcurrentHashMap<Long, Account> accounts = new ConcurrentHashMap<>();
    private final HighWaterMarks marks;
    /** Batches sealed and not acknowledged, oldest first; guarded by {@link #reports}. */
    private final Deque<UUID> unacknowledged = new ArrayDeque<>();
    private final Object reports = new Object();

    /**
     * @param keys        the cell's published keys
     * @param clock       the edge's clock
     * @param leeway      clock skew tolerated on a state's signing time and period end
     * @param dir         where to keep accounts on disk; null to keep them in memory only
     * @param log         where refusals (WARNING) and sleeps (INFO) are written
     * @param maxAccounts most accounts held
     */
    public CapKeeper(CellPublicKeys keys, Clock clock, Duration leeway, Path dir, Logger log, int maxAccounts) {
        this.keys = Objects.requireNonNull(keys, "keys");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.leeway = Objects.requireNonNull(leeway, "leeway");
        this.dir = dir;
        this.log = Objects.requireNonNull(log, "log");
        this.maxAccounts = maxAccounts;
        this.marks = new HighWaterMarks(dir, log);
        if (leeway.isNegative()) {
            throw new IllegalArgumentException("the leeway must not be negative: " + leeway);
        }
    }

    // ---- states ------------------------------------------------------------------------------

    /** Offers a signed state (from the control plane, or a push); see the class rules. */
    public Offer offer(String jws) {
        CapState state;
        try {
            state = CapStates.verify(jws, keys);
        } catch (InvalidTokenException e) {
            return refused(Refusal.UNVERIFIABLE, "not a cap state of this cell: " + e.getMessage(), null);
        }
        Instant now = clock.instant();
        if (Instant.ofEpochMilli(state.issuedAtMs()).isAfter(now.plus(leeway))) {
            return refused(Refusal.FROM_THE_FUTURE, "signed at " + Instant.ofEpochMilli(state.issuedAtMs())
                    + ", more than " + leeway + " after this edge's clock (" + now + ")", state);
        }
        if (!state.periodEnd().plus(leeway).isAfter(now)) {
            return refused(Refusal.PERIOD_OVER, "its period " + state.period() + " is over", state);
        }
        Account account = accounts.get(state.accountId());
        if (account == null) {
            if (accounts.size() >= maxAccounts) {
                return refused(Refusal.FULL, "this edge holds " + maxAccounts + " accounts already", state);
            }
            account = accounts.computeIfAbsent(state.accountId(), Account::new);
        }
        Offer offer;
        CapState lowered = null;
        long mark = marks.of(state.accountId());
        synchronized (account) {
            CapState held = account.state;
            if (held != null && state.sequence() <= held.sequence()) {
                if (state.sameChangeAs(held)) {
                    return new Offer.AlreadyHeld(held);
                }
                offer = null;
            } else if (held == null && state.sequence() < mark) {
                offer = null; // its file was lost: the mark still knows what was taken (issue 16)
            } else {
                if (held != null && held.period().equals(state.period()) && state.spentMillicents() < held.spentMillicents()) {
                    lowered = held;
                }
                account.take(jws, state);
                marks.raise(state.accountId(), state.sequence());
                offer = new Offer.Accepted(state);
            }
        }
        if (offer == null) {
            return refused(Refusal.OLDER_SEQUENCE, "sequence " + state.sequence() + " is not above the held "
                    + Math.max(account.sequence(), mark) + (account.sequence() < mark ? " (this edge's high-water mark; the"
                    + " account's own file was lost)" : ""), state);
        }
        if (lowered != null) {
            // Spending only grows within a period: a newer state that says less is a correction of the books or a fault
            // (issue 16); it is taken, being signed and newer, but an operator must see it.
            log.log(Level.WARNING, "cap: account {0}''s state at sequence {1} lowers what was spent in {2} from {3} to {4} cents"
                    + " (the held state, sequence {5}, said more); taken, as it is signed and newer", new Object[] {state.accountId(),
                            state.sequence(), state.period(), lowered.spentMillicents() / 1000.0, state.spentMillicents() / 1000.0,
                            lowered.sequence()});
        }
        log.log(Level.FINE, "cap: account {0} now at sequence {1} ({2}: {3} of {4} cents)", new Object[] {
                state.accountId(), state.sequence(), state.period(), state.spentMillicents() / 1000.0, state.capCents()});
        writeQuietly(account);
        return offer;
    }

    private Offer refused(Refusal reason, String detail, CapState state) {
        log.log(Level.WARNING, "cap: refused a cap state{0} ({1}): {2}; the last good state stays", new Object[] {
                state == null ? "" : " for account " + state.accountId() + " at sequence " + state.sequence(),
                reason.slug(), detail});
        return new Offer.Refused(reason, detail);
    }

    /** The highest sequence held for any account: where the next fetch of changes starts. */
    public long watermark() {
        long max = 0;
        for (Account account : accounts.values()) {
            max = Math.max(max, account.sequence());
        }
        return max;
    }

    /** The state held for {@code accountId}. */
    public Optional<CapState> state(long accountId) {
        Account account = accounts.get(accountId);
        if (account == null) {
            return Optional.empty();
        }
        synchronized (account) {
            return Optional.ofNullable(account.state);
        }
    }

    // ---- deciding and counting -----------------------------------------------------------------

    /** Whether {@code accountId}'s apps may be served now. */
    public Verdict verdict(long accountId) {
        return admit(accountId, null, 0);
    }

    /**
     * The verdict for {@code requests} requests of {@code app} (owned by {@code accountId}), and,
     * when it is {@link Verdict.Awake}, those requests counted as {@link #count} would: the verdict
     * is the one before they count. One pass under the account's monitor where a verdict and a
     * count took two (issue 15: every request of an account's apps takes it).
     */
    public Verdict admit(long accountId, String app, long requests) {
        Account account = accounts.get(accountId);
        if (account == null) {
            return new Verdict.Unknown(accountId);
        }
        CapState state;
        long unbilled;
        boolean asleep;
        boolean changed;
        synchronized (account) {
            state = account.state;
            if (state == null) {
                return new Verdict.Unknown(accountId);
            }
            unbilled = account.unbilledMillicents();
            asleep = state.reached(unbilled);
            changed = account.asleep == null || account.asleep != asleep;
            account.asleep = asleep;
            if (!asleep && app != null && requests > 0) {
                account.add(account.open, app, requests, 0);
            }
        }
        if (changed) {
            log.log(Level.INFO, "cap: account {0} is {1}: {2} of {3} cents used in {4}, of which {5} counted here and not billed yet",
                    new Object[] {accountId, asleep ? "asleep" : "awake", total(state, unbilled) / 1000.0,
                            state.capCents(), state.period(), unbilled / 1000.0});
            if (asleep) {
                writeQuietly(account); // the usage that put it to sleep is on disk at once
            }
        }
        if (!asleep) {
            return new Verdict.Awake(state, unbilled);
        }
        Duration untilNextPeriod = Duration.between(clock.instant(), state.periodEnd());
        return new Verdict.Asleep(state, unbilled, untilNextPeriod.compareTo(RETRY_FLOOR) < 0 ? RETRY_FLOOR : untilNextPeriod);
    }

    private static long total(CapState state, long unbilled) {
        return Prices.saturatedAdd(state.spentMillicents(), unbilled);
    }

    /**
     * Counts usage of {@code app} (owned by {@code accountId}) here: requests at the gate, CPU
     * milliseconds at the runtime host. It is on disk within the caller's flush interval.
     */
    public void count(long accountId, String app, long requests, long cpuMs) {
        if (accountId <= 0 || app == null || (requests <= 0 && cpuMs <= 0)) {
            return;
        }
        Account account = accounts.get(accountId);
        if (account == null) {
            if (accounts.size() >= maxAccounts) {
                log.log(Level.WARNING, "cap: cannot count usage of account {0}: {1} accounts held", new Object[] {accountId, maxAccounts});
                return;
            }
            account = accounts.computeIfAbsent(accountId, Account::new);
        }
        synchronized (account) {
            account.add(account.open, app, Math.max(0, requests), Math.max(0, cpuMs));
        }
    }

    // ---- reporting ---------------------------------------------------------------------------

    /**
     * The batch to send: the oldest one not acknowledged (with its id), else a new one sealed from
     * the usage counted since the last; empty when there is nothing to report. A new batch is on
     * disk before it is returned, so a restart sends it again under the same id, never again under
     * another.
     *
     * @throws UncheckedIOException when a new batch cannot be written (it is sent once it can)
     */
    public Optional<UsageBatch> nextBatch() {
        synchronized (reports) {
            UUID oldest = unacknowledged.peekFirst();
            if (oldest != null) {
                Optional<UsageBatch> batch = batch(oldest);
                if (batch.isPresent()) {
                    writeDirty(true);
                    return batch;
                }
                unacknowledged.removeFirst(); // nothing left under that id
            }
            UUID id = UUID.randomUUID();
            boolean any = false;
            for (Account account : accounts.values()) {
                synchronized (account) {
                    any |= account.seal(id);
                }
            }
            if (!any) {
                return Optional.empty();
            }
            unacknowledged.addLast(id);
            writeDirty(true);
            return batch(id);
        }
    }

    private Optional<UsageBatch> batch(UUID id) {
        Map<String, long[]> items = new TreeMap<>();
        for (Account account : accounts.values()) {
            synchronized (account) {
                if (id.equals(account.pendingBatch)) {
                    account.pending.forEach((app, usage) -> {
                        long[] sum = items.computeIfAbsent(app, a -> new long[2]);
                        sum[0] = Prices.saturatedAdd(sum[0], usage[0]);
                        sum[1] = Prices.saturatedAdd(sum[1], usage[1]);
                    });
                }
            }
        }
        if (items.isEmpty()) {
            return Optional.empty();
        }
        List<UsageItem> list = new ArrayList<>();
        items.forEach((app, usage) -> list.add(new UsageItem(app, usage[0], usage[1])));
        return Optional.of(new UsageBatch(id, list));
    }

    /**
     * The control plane billed batch {@code batchId}: {@code sequences} tells, per account it
     * billed, the sequence of the first state that includes it. Usage of an account it did not
     * bill (an app it no longer knows) is dropped; the rest counts until such a state is held.
     */
    public void acknowledged(UUID batchId, Map<Long, Long> sequences) {
        synchronized (reports) {
            for (Account account : accounts.values()) {
                synchronized (account) {
                    account.acknowledge(batchId, sequences.get(account.id));
                }
            }
            unacknowledged.remove(batchId);
            writeDirty(false);
        }
    }

    // ---- views -------------------------------------------------------------------------------

    /** Every account held, by id. */
    public List<Held> held() {
        List<Held> held = new ArrayList<>();
        for (Account account : accounts.values()) {
            synchronized (account) {
                long[] unbilled = account.unbilled();
                long millicents = account.unbilledMillicents();
                held.add(new Held(account.id, account.state, unbilled[0], unbilled[1], millicents,
                        account.state != null && account.state.reached(millicents), account.pendingBatch));
            }
        }
        held.sort(Comparator.comparingLong(Held::accountId));
        return held;
    }

    /** How many accounts are held. */
    public int size() {
        return accounts.size();
    }

    // ---- disk --------------------------------------------------------------------------------

    /**
     * Reads the accounts kept on disk, each state verified again with the cell's key. A file that
     * cannot be read, does not verify, or names another account is refused and set aside as
     * {@code *.refused} (one WARNING line each, {@link KeptFile#setAside}); its counts are not
     * trusted either, and its account counts as unknown ({@link Verdict.Unknown}) until a state for
     * it is received: fail closed, never "no cap".
     *
     * @return how many accounts were read
     */
    public int load() {
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
                        Account account = read(file, id);
                        accounts.put(id, account);
                        marks.raise(id, account.sequence());
                        read++;
                    } catch (IOException | RuntimeException | InvalidTokenException | ParseException e) {
                        setAside(file, id, e);
                    }
                }
            }
        } catch (IOException e) {
            log.log(Level.WARNING, "cap: cannot read the cap directory {0}: {1}", new Object[] {dir, e.toString()});
        }
        synchronized (reports) {
            accounts.values().stream().map(a -> a.pendingBatch).filter(Objects::nonNull).distinct()
                    .forEach(unacknowledged::addLast);
        }
        try {
            marks.write(); // marks learned from the account files (a cell older than the marks file, or a lost one)
        } catch (IOException e) {
            log.log(Level.WARNING, "cap: cannot write the high-water marks to {0}: {1}", new Object[] {dir, e.toString()});
        }
        return read;
    }

    /**
     * A kept file that cannot be read or does not verify: set aside (one WARNING line), and its
     * account is not held, so it counts as unknown (fetched, or refused while the API is down).
     */
    private void setAside(Path file, long id, Throwable why) {
        log.log(Level.WARNING, "cap: refused the kept file {0}: {1}; {2}; account {3} counts as unknown until its state is fetched",
                new Object[] {file, why.toString(), KeptFile.setAsideSaying(file), id});
    }

    /** Writes every account changed since it was last written; failures are logged, and tried again next time. */
    public void flush() {
        writeDirty(false);
    }

    private void writeDirty(boolean strict) {
        if (dir == null) {
            return;
        }
        for (Account account : accounts.values()) {
            try {
                write(account);
            } catch (IOException e) {
                if (strict) {
                    throw new UncheckedIOException("cannot keep account " + account.id + " in " + dir, e);
                }
                log.log(Level.WARNING, "cap: cannot write account {0} to {1}: {2}", new Object[] {account.id, dir, e.toString()});
            }
        }
    }

    private void writeQuietly(Account account) {
        try {
            write(account);
        } catch (IOException e) {
            log.log(Level.WARNING, "cap: cannot write account {0} to {1}: {2}", new Object[] {account.id, dir, e.toString()});
        }
    }

    /**
     * Writes one account if it changed, after the high-water marks (so a mark is never behind a kept
     * state); writes of one account are ordered by its write lock.
     */
    private void write(Account account) throws IOException {
        if (dir == null) {
            return;
        }
        marks.write();
        synchronized (account.writing) {
            byte[] bytes;
            long version;
            synchronized (account) {
                if (account.version == account.written) {
                    return;
                }
                bytes = JSONObjectUtils.toJSONString(account.toJson()).getBytes(StandardCharsets.UTF_8);
                version = account.version;
            }
            KeptFile.write(dir.resolve("account-" + account.id + ".json"), bytes);
            synchronized (account) {
                account.written = Math.max(account.written, version);
            }
        }
    }

    private Account read(Path file, long id) throws IOException, InvalidTokenException, ParseException {
        if (Files.size(file) > MAX_FILE_BYTES) {
            throw new IOException("over " + MAX_FILE_BYTES + " bytes");
        }
        Map<String, Object> json = JSONObjectUtils.parse(Files.readString(file, StandardCharsets.UTF_8), MAX_FILE_BYTES);
        if (whole(json.get("accountId")) != id) {
            throw new IOException("it is the file of another account");
        }
        Account account = new Account(id);
        Object jws = json.get("state");
        if (jws instanceof String text) {
            CapState state = CapStates.verify(text, keys);
            if (state.accountId() != id) {
                throw new InvalidTokenException("its state is account " + state.accountId() + "'s");
            }
            account.jws = text;
            account.state = state;
        }
        readUsage(json.get("open"), account.open, account);
        if (json.get("pending") instanceof Map<?, ?> pending && pending.get("batchId") instanceof String batch) {
            account.pendingBatch = UUID.fromString(batch);
            readUsage(pending.get("apps"), account.pending, account);
            if (account.pending.isEmpty()) {
                account.pendingBatch = null;
            }
        }
        if (json.get("acked") instanceof List<?> acked) {
            for (Object chunk : acked) {
                if (chunk instanceof List<?> values && values.size() == 3) {
                    account.acked.add(new long[] {whole(values.get(0)), whole(values.get(1)), whole(values.get(2))});
                }
            }
            account.dropBilled();
        }
        account.written = account.version;
        return account;
    }

    private static void readUsage(Object value, Map<String, long[]> into, Account account) {
        if (value instanceof Map<?, ?> apps) {
            for (Map.Entry<?, ?> entry : apps.entrySet()) {
                if (entry.getKey() instanceof String app && entry.getValue() instanceof List<?> usage && usage.size() == 2) {
                    account.add(into, app, whole(usage.get(0)), whole(usage.get(1)));
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

    /** One account: its state and its usage counted here, in three stages. Guarded by itself. */
    private static final class Account {

        final long id;
        final Object writing = new Object();
        String jws;
        CapState state;
        /** Counted, not reported: app → {requests, cpuMs}. */
        final Map<String, long[]> open = new LinkedHashMap<>();
        /** Reported in {@link #pendingBatch}, not acknowledged. */
        UUID pendingBatch;
        final Map<String, long[]> pending = new LinkedHashMap<>();
        /** Acknowledged, not in the held state yet: {requests, cpuMs, sequence}. */
        final List<long[]> acked = new ArrayList<>();
        /** The last verdict, to log changes only. */
        Boolean asleep;
        long version;
        long written;
        /**
         * {@link #unbilled()}'s sums, kept up to date by {@link #add} and worked out again after any
         * other change: a verdict per request reads them under this account's monitor, which every
         * request of the account's apps takes (issue 15: summing the stages there made requests wait).
         */
        private boolean totalKnown;
        private long totalRequests;
        private long totalCpuMs;

        Account(long id) {
            this.id = id;
        }

        long sequence() {
            synchronized (this) {
                return state == null ? 0 : state.sequence();
            }
        }

        void take(String jws, CapState state) {
            this.jws = jws;
            this.state = state;
            dropBilled();
            version++;
        }

        /** Acknowledged usage that the held state already includes is not counted twice. */
        void dropBilled() {
            totalKnown = false;
            if (state != null) {
                acked.removeIf(chunk -> chunk[2] <= state.sequence());
            }
        }

        void add(Map<String, long[]> into, String app, long requests, long cpuMs) {
            String bucket = into.size() >= MAX_APPS_PER_ACCOUNT && !into.containsKey(app) ? into.keySet().iterator().next() : app;
            long[] usage = into.computeIfAbsent(bucket, a -> new long[2]);
            usage[0] = Prices.saturatedAdd(usage[0], requests);
            usage[1] = Prices.saturatedAdd(usage[1], cpuMs);
            totalRequests = Prices.saturatedAdd(totalRequests, requests);
            totalCpuMs = Prices.saturatedAdd(totalCpuMs, cpuMs);
            version++;
        }

        /** Moves the open counts into batch {@code batchId}; false when there were none (or a batch is still out). */
        boolean seal(UUID batchId) {
            if (open.isEmpty() || pendingBatch != null) {
                return false;
            }
            pendingBatch = batchId;
            pending.putAll(open);
            open.clear();
            totalKnown = false;
            version++;
            return true;
        }

        void acknowledge(UUID batchId, Long sequence) {
            if (!batchId.equals(pendingBatch)) {
                return;
            }
            if (sequence != null) {
                long[] sum = new long[3];
                pending.values().forEach(usage -> {
                    sum[0] = Prices.saturatedAdd(sum[0], usage[0]);
                    sum[1] = Prices.saturatedAdd(sum[1], usage[1]);
                });
                sum[2] = sequence;
                acked.add(sum);
                if (acked.size() > MAX_ACKED_CHUNKS) {
                    long[] first = acked.remove(0);
                    long[] second = acked.get(0);
                    acked.set(0, new long[] {Prices.saturatedAdd(first[0], second[0]),
                            Prices.saturatedAdd(first[1], second[1]), Math.max(first[2], second[2])});
                }
            }
            pending.clear();
            pendingBatch = null;
            dropBilled();
            version++;
        }

        /** {requests, cpuMs} counted here and not in the held state. */
        long[] unbilled() {
            if (!totalKnown) {
                long[] sum = sum();
                totalRequests = sum[0];
                totalCpuMs = sum[1];
                totalKnown = true;
            }
            return new long[] {totalRequests, totalCpuMs};
        }

        private long[] sum() {
            long[] sum = new long[2];
            for (Map<String, long[]> stage : List.of(open, pending)) {
                for (long[] usage : stage.values()) {
                    sum[0] = Prices.saturatedAdd(sum[0], usage[0]);
                    sum[1] = Prices.saturatedAdd(sum[1], usage[1]);
                }
            }
            for (long[] chunk : acked) {
                sum[0] = Prices.saturatedAdd(sum[0], chunk[0]);
                sum[1] = Prices.saturatedAdd(sum[1], chunk[1]);
            }
            return sum;
        }

        long unbilledMillicents() {
            if (state == null) {
                return 0;
            }
            long[] usage = unbilled();
            return state.prices().cost(usage[0], usage[1]);
        }

        Map<String, Object> toJson() {
            Map<String, Object> json = new LinkedHashMap<>();
            json.put("v", 1L);
            json.put("accountId", id);
            json.put("state", jws);
            json.put("open", usageJson(open));
            json.put("pending", pendingBatch == null ? null
                    : Map.of("batchId", pendingBatch.toString(), "apps", usageJson(pending)));
            List<List<Long>> chunks = new ArrayList<>();
            acked.forEach(chunk -> chunks.add(List.of(chunk[0], chunk[1], chunk[2])));
            json.put("acked", chunks);
            return json;
        }

        private static Map<String, List<Long>> usageJson(Map<String, long[]> usage) {
            Map<String, List<Long>> json = new TreeMap<>();
            usage.forEach((app, values) -> json.put(app, List.of(values[0], values[1])));
            return json;
        }
    }
}
