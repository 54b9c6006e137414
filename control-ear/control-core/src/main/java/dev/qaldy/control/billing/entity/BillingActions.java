package dev.qaldy.control.billing.entity;

/** Audit actions of billing, and the actor of the ones nobody did by hand. */
public final class BillingActions {

    /** The owner changed the monthly cap. */
    public static final String CAP = "billing.cap";
    /** An app's account reached its cap: the app sleeps. */
    public static final String SLEEP = "billing.sleep";
    /** An app's account is under its cap again (raised cap, new period): the app wakes. */
    public static final String WAKE = "billing.wake";
    /** Who sleeps and wakes apps in the audit log. */
    public static final String ACTOR = "qaldy.billing";

    private BillingActions() {
    }
}
