package dev.qaldy.control.billing.entity;

/**
 * A CDI event: an account's signed cap state changed in a way the edge must act on at once (its
 * apps fell asleep or woke, or its owner changed the cap). Fired inside the billing transaction,
 * pushed to the edge after it commits.
 *
 * @param accountId the account (its owner's person id)
 * @param state     the new state, a compact JWS signed by the cell's key
 * @param why       for the log, e.g. "cap changed"
 */
public record CapStateChanged(long accountId, String state, String why) {
}
