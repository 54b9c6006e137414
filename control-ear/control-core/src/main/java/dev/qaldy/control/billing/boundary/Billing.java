package dev.qaldy.control.billing.boundary;

import dev.qaldy.contract.cap.CapState;
import dev.qaldy.contract.session.Session;
import dev.qaldy.control.apps.control.AppGuard;
import dev.qaldy.control.apps.entity.App;
import dev.qaldy.control.audit.entity.Audited;
import dev.qaldy.control.billing.control.CapStateSigner;
import dev.qaldy.control.billing.control.PriceList;
import dev.qaldy.control.billing.entity.BillingAccount;
import dev.qaldy.control.billing.entity.BillingActions;
import dev.qaldy.control.billing.entity.BillingClock;
import dev.qaldy.control.billing.entity.BillingView;
import dev.qaldy.control.billing.entity.CapStateChanged;
import dev.qaldy.control.billing.entity.UsageBatchRecord;
import dev.qaldy.control.billing.entity.UsageRecord;
import dev.qaldy.control.billing.entity.UsageReport;
import dev.qaldy.control.people.entity.Person;
import dev.qaldy.control.platform.control.InvalidInput;
import dev.qaldy.control.platform.control.NotFound;
import dev.qaldy.control.platform.control.SequenceRows;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Event;
import jakarta.inject.Inject;
import jakarta.json.Json;
import jakarta.json.JsonArrayBuilder;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import jakarta.transaction.Transactional;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicLong;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * Billing and the spending cap in the control plane: each account (the person who owns the
 * apps) has a monthly cap; the gate and the runtime host report usage in batches, billed once per
 * batch id at the prices of the {@link PriceList}; every change of an account's numbers (usage
 * billed, cap changed, a new period) gives its signed cap state the next sequence, and crossing
 * the limit either way is audited per app as a sleep or a wake.
 *
 * <p>Usage is billed to the period in which the control plane receives it (a batch sent across
 * midnight of the last day of a month lands in the new month).
 */
@ApplicationScoped
@Transactional
public class Billing {

    /** Cap states per page of {@link #changedSince}, at most. */
    public static final int MAX_PAGE = 1000;
    /** How often old batch ids are deleted, at most. */
    static final Duration PURGE_EVERY = Duration.ofHours(1);

    @PersistenceContext(unitName = "qaldy")
    EntityManager em;

    @Inject
    AppGuard guard;

    @Inject
    SequenceRows sequences;

    @Inject
    CapStateSigner signer;

    @Inject
    PriceList prices;

    @Inject
    Clock clock;

    @Inject
    Event<Audited> audit;

    @Inject
    Event<CapStateChanged> capChanged;

    @Inject
    Logger log;

    /** How long a billed batch id is remembered: a retry later than this would be billed again. */
    @Inject
    @ConfigProperty(name = "qaldy.billing.batch-retention", defaultValue = "P90D")
    Duration batchRetention;

    private final AtomicLong lastPurgeMs = new AtomicLong();

    /** One page of signed cap states. */
    public record StatesPage(List<String> states, long next, boolean more) {
    }

    // ---- the owner ---------------------------------------------------------------------------

    /** {@code me}'s spending this period; changes nothing. */
    public BillingView view(Session me) {
        return view(me.personId(), clock.instant());
    }

    /**
     * Sets {@code me}'s monthly cap (audited); the new signed state is pushed to every gate and
     * runtime host before this returns ({@link CapStateChanged}), and reaches one that missed the
     * push within its refresh window.
     *
     * @throws InvalidInput outside 0..{@link PriceList#MAX_CAP_CENTS}
     */
    public BillingView setCap(Session me, long capCents) {
        if (capCents < 0 || capCents > PriceList.MAX_CAP_CENTS) {
            throw new InvalidInput("\"capCents\" must be a whole number of cents from 0 to " + PriceList.MAX_CAP_CENTS);
        }
        Instant now = clock.instant();
        BillingClock sequence = sequences.lock(BillingClock.class);
        BillingAccount account = current(me.personId(), now, sequence);
        long before = account.capCents(prices.defaultCapCents());
        account.cap(capCents);
        if (!changed(account, sequence, now)) {
            capChanged.fire(new CapStateChanged(account.personId(), signer.sign(account), "cap changed"));
        }
        audit.fire(new Audited(me.email(), BillingActions.CAP, null, null,
                "monthly spending cap " + before + " → " + capCents + " cents"));
        return view(me.personId(), now);
    }

    private BillingView view(long personId, Instant now) {
        String period = CapState.periodOf(now);
        BillingAccount account = em.find(BillingAccount.class, personId);
        long cap = account == null ? prices.defaultCapCents() : account.capCents(prices.defaultCapCents());
        Map<String, BillingView.AppUsage> apps = new TreeMap<>();
        for (App app : em.createNamedQuery(App.OWNED_BY, App.class).setParameter("personId", personId).getResultList()) {
            apps.put(app.name(), new BillingView.AppUsage(app.name(), 0, 0, 0));
        }
        long spent = 0;
        for (UsageRecord usage : usageOf(personId, period)) {
            apps.put(usage.app(), new BillingView.AppUsage(usage.app(), usage.requests(), usage.cpuMs(), usage.costMillicents()));
            spent = saturatedAdd(spent, usage.costMillicents());
        }
        return new BillingView(period, cap, account == null || !account.capSet(), prices.freeAllowanceCents(),
                prices.limitCents(cap), (spent + 999) / 1000, spent,
                new BillingView.PriceView(prices.prices().requestMillicents(), prices.prices().cpuMsMillicents()),
                new ArrayList<>(apps.values()), prices.reached(cap, spent), CapState.periodEnd(period).toString());
    }

    // ---- the edge ----------------------------------------------------------------------------

    /**
     * Bills a usage batch once: a batch id already billed gets the receipt it got the first time,
     * and nothing is billed again. Usage of an app the control plane does not know is not billed
     * (listed in the receipt). Every account billed gets a new cap state sequence, which the
     * receipt names: the edge counts the batch's usage itself until it holds a state that new.
     *
     * @return the receipt, JSON {@code {"batchId","accounts":[{"accountId","sequence"}],"unknownApps":[…]}}
     */
    public String bill(UsageReport report) {
        String id = report.batchId().toString();
        UsageBatchRecord billed = em.find(UsageBatchRecord.class, id);
        if (billed != null) {
            return billed.receipt();
        }
        Instant now = clock.instant();
        BillingClock sequence = sequences.lock(BillingClock.class);
        billed = em.find(UsageBatchRecord.class, id); // a concurrent send of the same batch won the lock
        if (billed != null) {
            return billed.receipt();
        }
        Map<Long, BillingAccount> touched = new LinkedHashMap<>();
        TreeSet<String> unknown = new TreeSet<>();
        String period = CapState.periodOf(now);
        report.perApp().forEach((name, usage) -> {
            Optional<App> app = guard.byName(name);
            if (app.isEmpty()) {
                unknown.add(name);
                return;
            }
            long owner = app.get().owner().id();
            BillingAccount account = touched.computeIfAbsent(owner, o -> current(o, now, sequence));
            long cost = prices.prices().cost(usage[0], usage[1]);
            UsageRecord record = em.createNamedQuery(UsageRecord.FIND, UsageRecord.class).setParameter("personId", owner)
                    .setParameter("period", period).setParameter("app", name).getResultStream().findFirst()
                    .orElseGet(() -> {
                        UsageRecord created = new UsageRecord(owner, period, name);
                        em.persist(created);
                        return created;
                    });
            record.add(usage[0], usage[1], cost);
            account.spend(cost);
        });
        JsonArrayBuilder accounts = Json.createArrayBuilder();
        for (BillingAccount account : touched.values()) {
            changed(account, sequence, now);
            accounts.add(Json.createObjectBuilder().add("accountId", account.personId()).add("sequence", account.sequence()));
        }
        JsonArrayBuilder unknownApps = Json.createArrayBuilder();
        unknown.stream().limit(100).forEach(unknownApps::add);
        String receipt = Json.createObjectBuilder().add("batchId", id).add("accounts", accounts)
                .add("unknownApps", unknownApps).build().toString();
        em.persist(new UsageBatchRecord(id, report.reporter(), now, receipt));
        purgeOldBatches(now);
        return receipt;
    }

    /**
     * Signed cap states of every account whose state changed after sequence {@code since}, by
     * sequence, at most {@code limit}. Accounts still in a period that ended are moved into the
     * current one first (a new sequence each), so a new month reaches the edge like any change.
     */
    public StatesPage changedSince(long since, int limit) {
        if (since < 0 || limit < 1 || limit > MAX_PAGE) {
            throw new InvalidInput("since must be ≥ 0 and limit 1.." + MAX_PAGE);
        }
        rollEndedPeriods(clock.instant());
        List<BillingAccount> changed = em.createNamedQuery(BillingAccount.CHANGED_SINCE, BillingAccount.class)
                .setParameter("since", since).setMaxResults(limit + 1).getResultList();
        boolean more = changed.size() > limit;
        List<String> states = new ArrayList<>();
        long next = since;
        for (BillingAccount account : changed.subList(0, Math.min(limit, changed.size()))) {
            states.add(signer.sign(account));
            next = account.sequence();
        }
        return new StatesPage(states, next, more);
    }

    /**
     * The signed cap state of account {@code personId}, for an edge that never received it; the
     * account is opened with the default cap if it has none yet.
     *
     * @throws NotFound when there is no such person
     */
    public String stateOf(long personId) {
        Instant now = clock.instant();
        BillingAccount account = em.find(BillingAccount.class, personId);
        if (account == null || !account.period().equals(CapState.periodOf(now))) {
            if (em.find(Person.class, personId) == null) {
                throw new NotFound("no account " + personId);
            }
            account = current(personId, now, sequences.lock(BillingClock.class));
        }
        return signer.sign(account);
    }

    // ---- the control plane's own view ------------------------------------------------------

    /**
     * Whether server code of {@code appName} may run now, by the control plane's own numbers (the
     * usage billed so far, in the current period): false when its owner's account reached its
     * limit. An app that does not exist has no account to bill, so billing does not hold it back
     * (nothing can run it anyway).
     */
    public boolean mayRun(String appName) {
        Optional<App> app = guard.byName(appName);
        return app.isEmpty() || !view(app.get().owner().id(), clock.instant()).asleep();
    }

    // ---- the rules ---------------------------------------------------------------------------

    /**
     * The account of {@code personId} in the period of {@code now}, opened or moved into it if
     * needed; the caller holds the sequence lock.
     */
    private BillingAccount current(long personId, Instant now, BillingClock sequence) {
        String period = CapState.periodOf(now);
        BillingAccount account = em.find(BillingAccount.class, personId);
        if (account == null) {
            account = new BillingAccount(personId, period, spentIn(personId, period));
            em.persist(account);
            changed(account, sequence, now);
        } else if (account.roll(period, spentIn(personId, period))) {
            changed(account, sequence, now);
        }
        return account;
    }

    private void rollEndedPeriods(Instant now) {
        String period = CapState.periodOf(now);
        if (em.createNamedQuery(BillingAccount.COUNT_STALE, Long.class).setParameter("period", period).getSingleResult() == 0) {
            return;
        }
        BillingClock sequence = sequences.lock(BillingClock.class);
        List<BillingAccount> stale = em.createNamedQuery(BillingAccount.STALE, BillingAccount.class)
                .setParameter("period", period).getResultList();
        for (BillingAccount account : stale) {
            current(account.personId(), now, sequence);
        }
        log.log(Level.INFO, "billing: moved {0} accounts into the period {1}", new Object[] {stale.size(), period});
    }

    /**
     * Gives the account's state the next sequence; when its apps fall asleep or wake, audits it per
     * app and has the new state pushed to the edge after the commit ({@link CapStateChanged}).
     *
     * @return whether the apps fell asleep or woke
     */
    private boolean changed(BillingAccount account, BillingClock sequence, Instant now) {
        account.changed(sequence.next(), now);
        long cap = account.capCents(prices.defaultCapCents());
        Boolean sleeping = account.sleeping(prices.reached(cap, account.spentMillicents()));
        if (sleeping == null) {
            return false;
        }
        String target = (sleeping ? "spending cap reached: " : "under the spending cap again: ")
                + (account.spentMillicents() / 1000.0) + " of " + prices.limitCents(cap) + " cents used in " + account.period();
        for (App app : em.createNamedQuery(App.OWNED_BY, App.class).setParameter("personId", account.personId()).getResultList()) {
            audit.fire(new Audited(BillingActions.ACTOR, sleeping ? BillingActions.SLEEP : BillingActions.WAKE,
                    app.id(), app.name(), target));
        }
        log.log(Level.INFO, "billing: account {0} {1}", new Object[] {account.personId(), target});
        capChanged.fire(new CapStateChanged(account.personId(), signer.sign(account), sleeping ? "asleep" : "awake"));
        return true;
    }

    private long spentIn(long personId, String period) {
        Object spent = em.createNamedQuery(UsageRecord.SPENT).setParameter("personId", personId)
                .setParameter("period", period).getSingleResult();
        return spent instanceof Number number ? number.longValue() : 0;
    }

    private List<UsageRecord> usageOf(long personId, String period) {
        return em.createNamedQuery(UsageRecord.OF_ACCOUNT, UsageRecord.class).setParameter("personId", personId)
                .setParameter("period", period).getResultList();
    }

    /** Deletes batch ids older than the retention, at most once per {@link #PURGE_EVERY}. */
    private void purgeOldBatches(Instant now) {
        long last = lastPurgeMs.get();
        if (now.toEpochMilli() - last < PURGE_EVERY.toMillis() || !lastPurgeMs.compareAndSet(last, now.toEpochMilli())) {
            return;
        }
        int deleted = em.createNamedQuery(UsageBatchRecord.DELETE_OLDER)
                .setParameter("before", now.minus(batchRetention).toEpochMilli()).executeUpdate();
        if (deleted > 0) {
            log.log(Level.INFO, "billing: forgot {0} usage batch ids older than {1}", new Object[] {deleted, batchRetention});
        }
    }

    private static long saturatedAdd(long a, long b) {
        long sum = a + b;
        return sum < 0 ? Long.MAX_VALUE : sum;
    }
}
