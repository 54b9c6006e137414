package dev.qaldy.contract.cap;

import dev.qaldy.contract.files.KeptFile;
import dev.qaldy.contract.keys.CellPublicKeys;
import dev.qaldy.contract.session.InvalidTokenException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The edge's (gate's, runtime host's) cap rules per account: the last verified cap state plus the
 * usage counted here and not billed yet ({@link AccountLedger}), kept on disk when a directory is
 * given ({@link AccountFiles}) so a restart during an outage neither forgets the cap nor the usage.
 *
 * <p>Seed: "apps still go to sleep at the cap with no API at all".
 * <ul>
 * <li>A state is taken only when signed by the cell, its sequence is above the held one and not
 * below the account's {@link HighWaterMarks high-water mark}, its period is not over and it was not
 * signed in the future (both with {@code leeway}); otherwise it is refused (WARNING) and the last
 * good state stays.
 * <li>The app sleeps when spent + unbilled ≥ cap, in millicents. A state whose period is over still
 * applies: never read as "no cap".
 * <li>An account with no state is {@link Verdict.Unknown}: the caller fetches it, or answers 503.
 * </ul>
 * Usage is reported at least once, in batches with a stable id sealed to disk before sending; the
 * control plane bills a batch id once. Thread-safe.
 */
public final class CapKeeper {

    /** Smallest Retry-After of a sleeping account, e.g. on a state whose period is over. */
    public static final Duration RETRY_FLOOR = Duration.ofSeconds(30);

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

        public String slug() {
            return name().toLowerCase(java.util.Locale.ROOT).replace('_', '-');
        }
    }

    public sealed interface Offer {

        record Accepted(CapState state) implements Offer {
        }

        /** The same change as the one held (signed again): nothing to do. */
        record AlreadyHeld(CapState state) implements Offer {
        }

        record Refused(Refusal reason, String detail) implements Offer {
        }
    }

    public sealed interface Verdict {

        record Awake(CapState state, long unbilledMillicents) implements Verdict {
        }

        /** At or over the cap: asleep until {@code retryAfter} from now (the next period), or a new state. */
        record Asleep(CapState state, long unbilledMillicents, Duration retryAfter) implements Verdict {
        }

        /** No state was ever received for the account. */
        record Unknown(long accountId) implements Verdict {
        }
    }

    /** An app's requests and CPU ms. */
    public record UsageItem(String app, long requests, long cpuMs) {
    }

    /** The same id every time it is sent, until acknowledged. */
    public record UsageBatch(UUID batchId, List<UsageItem> items) {

        public UsageBatch {
            Objects.requireNonNull(batchId, "batchId");
            items = List.copyOf(items);
        }
    }

    /** One account as held, for views and logs; unbilled money in millicents. */
    public record Held(long accountId, CapState state, long unbilledRequests, long unbilledCpuMs,
            long unbilledMillicents, boolean asleep, UUID pendingBatch) {
    }

    private final CellPublicKeys keys;
    private final Clock clock;
    private final Duration leeway;
    private final Logger log;
    private final int maxAccounts;
    private final ConcurrentHashMap<Long, AccountLedger> accounts = new ConcurrentHashMap<>();
    private final HighWaterMarks marks;
    private final AccountFiles files;
    /** Batches sealed and not acknowledged, oldest first; guarded by {@link #reports}. */
    private final Deque<UUID> unacknowledged = new ArrayDeque<>();
    private final Object reports = new Object();

    /**
     * @param leeway clock skew tolerated on a state's signing time and period end
     * @param dir    where accounts are kept on disk; null for memory only
     */
    public CapKeeper(CellPublicKeys keys, Clock clock, Duration leeway, Path dir, Logger log, int maxAccounts) {
        this.keys = Objects.requireNonNull(keys, "keys");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.leeway = Objects.requireNonNull(leeway, "leeway");
        this.log = Objects.requireNonNull(log, "log");
        this.maxAccounts = maxAccounts;
        this.marks = new HighWaterMarks(dir, log);
        this.files = new AccountFiles(dir, keys, marks, log);
        if (leeway.isNegative()) {
            throw new IllegalArgumentException("the leeway must not be negative: " + leeway);
        }
    }

    /** Offers a signed state (fetched or pushed); see the class rules. */
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
        AccountLedger account = accounts.get(state.accountId());
        if (account == null) {
            if (accounts.size() >= maxAccounts) {
                return refused(Refusal.FULL, "this edge holds " + maxAccounts + " accounts already", state);
            }
            account = accounts.computeIfAbsent(state.accountId(), AccountLedger::new);
        }
        Offer offer;
        CapState lowered = null;
        long mark = marks.of(state.accountId());
        synchronized (account) {
            CapState held = account.state();
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
            // Spending only grows within a period (issue 16): a lower one is taken, being signed and newer, but logged.
            log.log(Level.WARNING, "cap: account {0}''s state at sequence {1} lowers what was spent in {2} from {3} to {4} cents"
                    + " (the held state, sequence {5}, said more); taken, as it is signed and newer", new Object[] {state.accountId(),
                            state.sequence(), state.period(), lowered.spentMillicents() / 1000.0, state.spentMillicents() / 1000.0,
                            lowered.sequence()});
        }
        log.log(Level.FINE, "cap: account {0} now at sequence {1} ({2}: {3} of {4} cents)", new Object[] {
                state.accountId(), state.sequence(), state.period(), state.spentMillicents() / 1000.0, state.capCents()});
        files.writeQuietly(account);
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
        for (AccountLedger account : accounts.values()) {
            max = Math.max(max, account.sequence());
        }
        return max;
    }

    public Optional<CapState> state(long accountId) {
        AccountLedger account = accounts.get(accountId);
        if (account == null) {
            return Optional.empty();
        }
        synchronized (account) {
            return Optional.ofNullable(account.state());
        }
    }

    public Verdict verdict(long accountId) {
        return admit(accountId, null, 0);
    }

    /**
     * The verdict before counting {@code requests} of {@code app}, which are counted when it is
     * {@link Verdict.Awake}: one pass under the account's monitor, as the gate calls it per request
     * (issue 15).
     */
    public Verdict admit(long accountId, String app, long requests) {
        AccountLedger account = accounts.get(accountId);
        if (account == null) {
            return new Verdict.Unknown(accountId);
        }
        CapState state;
        long unbilled;
        boolean asleep;
        boolean changed;
        synchronized (account) {
            state = account.state();
            if (state == null) {
                return new Verdict.Unknown(accountId);
            }
            unbilled = account.unbilledMillicents();
            asleep = state.reached(unbilled);
            changed = account.turned(asleep);
            if (!asleep && app != null && requests > 0) {
                account.count(app, requests, 0);
            }
        }
        if (changed) {
            log.log(Level.INFO, "cap: account {0} is {1}: {2} of {3} cents used in {4}, of which {5} counted here and not billed yet",
                    new Object[] {accountId, asleep ? "asleep" : "awake", Prices.saturatedAdd(state.spentMillicents(), unbilled) / 1000.0,
                            state.capCents(), state.period(), unbilled / 1000.0});
            if (asleep) {
                files.writeQuietly(account); // the usage that put it to sleep is on disk at once
            }
        }
        if (!asleep) {
            return new Verdict.Awake(state, unbilled);
        }
        Duration untilNextPeriod = Duration.between(clock.instant(), state.periodEnd());
        return new Verdict.Asleep(state, unbilled, untilNextPeriod.compareTo(RETRY_FLOOR) < 0 ? RETRY_FLOOR : untilNextPeriod);
    }

    /** Counts usage of {@code app}: requests at the gate, CPU ms at the runtime host. */
    public void count(long accountId, String app, long requests, long cpuMs) {
        if (accountId <= 0 || app == null || (requests <= 0 && cpuMs <= 0)) {
            return;
        }
        AccountLedger account = accounts.get(accountId);
        if (account == null) {
            if (accounts.size() >= maxAccounts) {
                log.log(Level.WARNING, "cap: cannot count usage of account {0}: {1} accounts held", new Object[] {accountId, maxAccounts});
                return;
            }
            account = accounts.computeIfAbsent(accountId, AccountLedger::new);
        }
        synchronized (account) {
            account.count(app, Math.max(0, requests), Math.max(0, cpuMs));
        }
    }

    /**
     * The oldest unacknowledged batch, else a new one sealed from the usage counted since; on disk
     * before it is returned, so a restart resends it under the same id.
     *
     * @throws UncheckedIOException when a new batch cannot be written
     */
    public Optional<UsageBatch> nextBatch() {
        synchronized (reports) {
            UUID oldest = unacknowledged.peekFirst();
            if (oldest != null) {
                Optional<UsageBatch> batch = batch(oldest);
                if (batch.isPresent()) {
                    files.writeAll(accounts.values(), true);
                    return batch;
                }
                unacknowledged.removeFirst(); // nothing left under that id
            }
            UUID id = UUID.randomUUID();
            boolean any = false;
            for (AccountLedger account : accounts.values()) {
                synchronized (account) {
                    any |= account.seal(id);
                }
            }
            if (!any) {
                return Optional.empty();
            }
            unacknowledged.addLast(id);
            files.writeAll(accounts.values(), true);
            return batch(id);
        }
    }

    private Optional<UsageBatch> batch(UUID id) {
        Map<String, Usage> items = new TreeMap<>();
        for (AccountLedger account : accounts.values()) {
            synchronized (account) {
                if (id.equals(account.pendingBatch())) {
                    account.pending().forEach((app, usage) -> items.merge(app, usage, Usage::plus));
                }
            }
        }
        if (items.isEmpty()) {
            return Optional.empty();
        }
        List<UsageItem> list = new ArrayList<>();
        items.forEach((app, usage) -> list.add(new UsageItem(app, usage.requests(), usage.cpuMs())));
        return Optional.of(new UsageBatch(id, list));
    }

    /**
     * The control plane billed {@code batchId}; {@code sequences} gives, per account billed, the first
     * state sequence that includes it. Usage of an account it did not bill is dropped.
     */
    public void acknowledged(UUID batchId, Map<Long, Long> sequences) {
        synchronized (reports) {
            for (AccountLedger account : accounts.values()) {
                synchronized (account) {
                    account.acknowledge(batchId, sequences.get(account.id));
                }
            }
            unacknowledged.remove(batchId);
            files.writeAll(accounts.values(), false);
        }
    }

    public List<Held> held() {
        List<Held> held = new ArrayList<>();
        for (AccountLedger account : accounts.values()) {
            synchronized (account) {
                Usage unbilled = account.unbilled();
                long millicents = account.unbilledMillicents();
                CapState state = account.state();
                held.add(new Held(account.id, state, unbilled.requests(), unbilled.cpuMs(), millicents,
                        state != null && state.reached(millicents), account.pendingBatch()));
            }
        }
        held.sort(Comparator.comparingLong(Held::accountId));
        return held;
    }

    public int size() {
        return accounts.size();
    }

    /**
     * Reads the accounts kept on disk, verifying each state again. A file that does not read or verify
     * is set aside ({@link KeptFile#setAside}) and its account stays {@link Verdict.Unknown}: fail closed.
     *
     * @return how many accounts were read
     */
    public int load() {
        if (!files.kept()) {
            return 0;
        }
        int read = files.load(account -> accounts.put(account.id, account));
        synchronized (reports) {
            accounts.values().stream().map(AccountLedger::pendingBatch).filter(Objects::nonNull).distinct()
                    .forEach(unacknowledged::addLast);
        }
        return read;
    }

    /** Writes every account changed since last written; failures are logged and retried next time. */
    public void flush() {
        files.writeAll(accounts.values(), false);
    }
}
