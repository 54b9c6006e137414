package dev.qaldy.control.access.entity;

/**
 * The answer to "may person P open app A", as the gate receives it.
 *
 * @param app            the app's name
 * @param personId       the person's id
 * @param decision       {@code "allow"} or {@code "deny"}
 * @param sharingVersion the app's sharing version when this was decided
 * @param accountId      the account whose spending cap the app's traffic counts against: its owner's person id
 */
public record AccessDecision(String app, long personId, String decision, long sharingVersion, long accountId) {

    public static final String ALLOW = "allow";
    public static final String DENY = "deny";
}
