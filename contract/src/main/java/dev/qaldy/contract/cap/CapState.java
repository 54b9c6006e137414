package dev.qaldy.contract.cap;

import java.time.Instant;
import java.time.YearMonth;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * One account's spending in one period as the control plane vouches for it, signed with the cell's
 * key ({@link CapStates}). Money: cap in cents, spending and prices in millicents (1 cent = 1000),
 * so sub-cent prices add up exactly; times in epoch ms.
 *
 * @param accountId the id of the person who owns the apps
 * @param period    calendar month in UTC, {@code YYYY-MM}
 * @param capCents  the owner's cap plus the cell's free allowance; 0 means nothing at all
 * @param asOfMs    when the control plane last changed this state
 * @param sequence  grows with every change of any account's state
 */
public record CapState(long accountId, String period, long capCents, long spentMillicents, long asOfMs,
        Prices prices, long issuedAtMs, long sequence) {

    private static final Pattern PERIOD = Pattern.compile("[0-9]{4}-(0[1-9]|1[0-2])");
    /** Cents; bounded so its millicents cannot overflow. */
    public static final long MAX_CAP_CENTS = Long.MAX_VALUE / 1000;

    public CapState {
        Objects.requireNonNull(prices, "prices");
        if (accountId <= 0) {
            throw new IllegalArgumentException("account ids are positive: " + accountId);
        }
        if (period == null || !PERIOD.matcher(period).matches()) {
            throw new IllegalArgumentException("the period must be YYYY-MM: " + period);
        }
        if (capCents < 0 || capCents > MAX_CAP_CENTS || spentMillicents < 0) {
            throw new IllegalArgumentException("cap and spending must not be negative: " + capCents + ", " + spentMillicents);
        }
        if (sequence <= 0) {
            throw new IllegalArgumentException("sequences start at 1: " + sequence);
        }
    }

    public static String periodOf(Instant instant) {
        return YearMonth.from(instant.atOffset(ZoneOffset.UTC)).toString();
    }

    public static Instant periodStart(String period) {
        return yearMonth(period).atDay(1).atStartOfDay().toInstant(ZoneOffset.UTC);
    }

    /** Exclusive: the start of the next period. */
    public static Instant periodEnd(String period) {
        return yearMonth(period).plusMonths(1).atDay(1).atStartOfDay().toInstant(ZoneOffset.UTC);
    }

    private static YearMonth yearMonth(String period) {
        try {
            return YearMonth.parse(period);
        } catch (DateTimeParseException | NullPointerException e) {
            throw new IllegalArgumentException("the period must be YYYY-MM: " + period, e);
        }
    }

    public Instant periodEnd() {
        return periodEnd(period);
    }

    public long capMillicents() {
        return capCents * 1000;
    }

    /** Whether spent + {@code localMillicents} (counted at the edge, not billed) ≥ cap; a cap of 0 is always reached. */
    public boolean reached(long localMillicents) {
        return Prices.saturatedAdd(spentMillicents, Math.max(0, localMillicents)) >= capMillicents();
    }

    /** Equal apart from when it was signed. */
    public boolean sameChangeAs(CapState other) {
        return other != null && accountId == other.accountId && period.equals(other.period) && capCents == other.capCents
                && spentMillicents == other.spentMillicents && asOfMs == other.asOfMs && prices.equals(other.prices)
                && sequence == other.sequence;
    }
}
