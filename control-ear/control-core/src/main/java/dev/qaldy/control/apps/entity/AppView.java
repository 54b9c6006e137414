package dev.qaldy.control.apps.entity;

/**
 * An app as a person sees it.
 *
 * @param name        the app's name
 * @param owner       the owner's email
 * @param role        {@code "owner"} or {@code "viewer"}
 * @param liveVersion the live version, or {@code null}
 * @param url         the app's own origin, e.g. {@code http://guestbook.localhost:8080/}
 * @param kind        {@code "app"} (sign-in, shared by email) or {@code "site"} (public, no sign-in)
 * @param promoteEveryBuild true when every succeeded build goes live by itself; false when only the first does
 */
public record AppView(String name, String owner, String role, Long liveVersion, String url, String kind,
        boolean promoteEveryBuild) {

    public static final String OWNER = "owner";
    public static final String VIEWER = "viewer";
}
