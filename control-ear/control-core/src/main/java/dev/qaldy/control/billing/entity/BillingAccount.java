package dev.qaldy.control.billing.entity;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Index;
import jakarta.persistence.NamedQuery;
import jakarta.persistence.Table;
import java.time.Instant;
import java.util.Objects;

/**
 * An account's spending: the person who owns the apps, their monthly cap (null: the cell's
 * default), the period its numbers are for, what was spent in it, and the sequence and time of
 * the last change of its signed cap state. Every change takes the next sequence of the
 * {@link BillingClock}, so the edge can fetch "what changed since" exactly.
 */
@Entity
@Table(name = "BILLING_ACCOUNTS", indexes = @Index(name = "BILLING_ACCOUNTS_SEQ_IX", columnList = "STATE_SEQUENCE"))
@NamedQuery(name = BillingAccount.CHANGED_SINCE,
        query = "SELECT a FROM BillingAccount a WHERE a.sequence > :since ORDER BY a.sequence")
@NamedQuery(name = BillingAccount.STALE, query = "SELECT a FROM BillingAccount a WHERE a.period <> :period")
@NamedQuery(name = BillingAccount.COUNT_STALE, query = "SELECT COUNT(a) FROM BillingAccount a WHERE a.period <> :period")
public class BillingAccount {

    public static final String CHANGED_SINCE = "BillingAccount.changedSince";
    public static final String STALE = "BillingAccount.stale";
    public static final String COUNT_STALE = "BillingAccount.countStale";

    /** The owner's person id: the account id in cap states. */
    @Id
    @Column(name = "PERSON_ID")
    private long personId;

    /** The owner's cap in cents; null while the owner never set one (the cell's default applies). */
    @Column(name = "CAP_CENTS")
    private Long capCents;

    /** {@code YYYY-MM}, UTC. */
    @Column(name = "PERIOD", nullable = false, length = 7)
    private String period;

    @Column(name = "SPENT_MILLICENTS", nullable = false)
    private long spentMillicents;

    @Column(name = "STATE_SEQUENCE", nullable = false)
    private long sequence;

    /** Epoch milliseconds of the last change. */
    @Column(name = "AS_OF_MS", nullable = false)
    private long asOfMs;

    /** Whether the account was over its cap at its last change (to audit sleeps and wakes once). */
    @Column(name = "ASLEEP", nullable = false)
    private boolean asleep;

    protected BillingAccount() {
    }

    /** A new account in {@code period} that spent {@code spentMillicents} in it so far. */
    public BillingAccount(long personId, String period, long spentMillicents) {
        this.personId = personId;
        this.period = Objects.requireNonNull(period, "period");
        this.spentMillicents = spentMillicents;
    }

    public long personId() {
        return personId;
    }

    /** The owner's cap, or {@code defaultCents} while they never set one. */
    public long capCents(long defaultCents) {
        return capCents == null ? defaultCents : capCents;
    }

    /** Whether the owner set the cap (else the cell's default applies). */
    public boolean capSet() {
        return capCents != null;
    }

    public String period() {
        return period;
    }

    public long spentMillicents() {
        return spentMillicents;
    }

    public long sequence() {
        return sequence;
    }

    public Instant asOf() {
        return Instant.ofEpochMilli(asOfMs);
    }

    public boolean asleep() {
        return asleep;
    }

    /** Sets the owner's cap; the caller checked its range. */
    public void cap(long cents) {
        if (cents < 0) {
            throw new IllegalArgumentException("a cap is not negative: " + cents);
        }
        this.capCents = cents;
    }

    /** Starts {@code newPeriod}, with what was already billed to it; false when it is the account's period already. */
    public boolean roll(String newPeriod, long spentInNewPeriod) {
        if (newPeriod.equals(period)) {
            return false;
        }
        this.period = newPeriod;
        this.spentMillicents = spentInNewPeriod;
        return true;
    }

    /** Adds billed usage, saturating. */
    public void spend(long millicents) {
        long sum = spentMillicents + Math.max(0, millicents);
        spentMillicents = sum < 0 ? Long.MAX_VALUE : sum;
    }

    /** Records a change of the account's state with its new sequence. */
    public void changed(long newSequence, Instant at) {
        if (newSequence <= sequence) {
            throw new IllegalStateException("sequences only grow: " + newSequence + " after " + sequence);
        }
        this.sequence = newSequence;
        this.asOfMs = at.toEpochMilli();
    }

    /**
     * Records whether the account is over its limit now.
     *
     * @return the change: {@link Boolean#TRUE} it fell asleep, {@link Boolean#FALSE} it woke, null no change
     */
    public Boolean sleeping(boolean now) {
        if (now == asleep) {
            return null;
        }
        asleep = now;
        return now;
    }
}
