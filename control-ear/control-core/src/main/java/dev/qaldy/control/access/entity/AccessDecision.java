package dev.qaldy.control.access.entity;

/**
 * The answer to "may person P open app A", as the gate receives it.
 *
 * @param app            the app's name
 * @param personId       the person's id
 * @param decision       {@code "allow"} or {@code "deny"}
 * @param sharingVersion the app's sharing version when this was decided
 */
public record AccessDecision(String app, long personId, String decision, long sharingVersion) {

    public static final String ALLOW = "allow";
    public static final String DENY = "deny";
}
