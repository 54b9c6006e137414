package dev.qaldy.contract.cap;

import java.time.Instant;
import java.time.YearMonth;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * What the control plane vouches for about one account's spending in one period, signed with the
 * cell's key ({@link CapStates}); the gate and the runtime host keep the last one they verified and
 * add what they counted themselves since.
 *
 * <p>Units: money in cents (the cap) and millicents (spending, prices; 1 cent = 1000 millicents),
 * so that sub-cent prices add up exactly. Times are epoch milliseconds.
 *
 * @param accountId       the account: the id of the person who owns the apps
 * @param period          the billing period, a calendar month in UTC as {@code YYYY-MM}
 * @param capCents        the most the account may use this period, in cents: the owner's cap
 *                        plus the cell's free allowance; 0 means nothing at all
 * @param spentMillicents what the control plane billed the account in this period, as of {@code asOfMs}
 * @param asOfMs          when the control plane last changed this state (usage applied, cap changed, period rolled)
 * @param prices          the prices the edge uses for the usage it counts itself
 * @param issuedAtMs      when the control plane signed this state
 * @param sequence        grows with every change of any account's state; the edge never accepts a
 *                        state whose sequence is not above the one it holds for the account
 */
public record CapState(long accountId, String period, long capCents, long spentMillicents, long asOfMs,
        Prices prices, long issuedAtMs, long sequence) {

    private static final Pattern PERIOD = Pattern.compile("[0-9]{4}-(0[1-9]|1[0-2])");
    /** The largest cap a state may carry, in cents (so its millicents cannot overflow). */
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

    /** The period ({@code YYYY-MM}, UTC) that {@code instant} falls in. */
    public static String periodOf(Instant instant) {
        return YearMonth.from(instant.atOffset(ZoneOffset.UTC)).toString();
    }

    /** The first instant of {@code period}. */
    public static Instant periodStart(String period) {
        return yearMonth(period).atDay(1).atStartOfDay().toInstant(ZoneOffset.UTC);
    }

    /** The first instant after {@code period}: the start of the next one. */
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

    /** The start of the next period: when this state's apps wake by themselves. */
    public Instant periodEnd() {
        return periodEnd(period);
    }

    /** The cap in millicents. */
    public long capMillicents() {
        return capCents * 1000;
    }

    /**
     * Whether the account reached its cap once {@code localMillicents} (what the edge counted and the
     * control plane had not billed yet) are added: spent + local ≥ cap. A cap of 0 is always reached.
     */
    public boolean reached(long localMillicents) {
        return Prices.saturatedAdd(spentMillicents, Math.max(0, localMillicents)) >= capMillicents();
    }

    /** The same state as {@code other} apart from when it was signed (the same change, signed again). */
    public boolean sameChangeAs(CapState other) {
        return other != null && accountId == other.accountId && period.equals(other.period) && capCents == other.capCents
                && spentMillicents == other.spentMillicents && asOfMs == other.asOfMs && prices.equals(other.prices)
                && sequence == other.sequence;
    }
}
