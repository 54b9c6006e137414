package dev.qaldy.control.apps.entity;

/**
 * Whether anyone may open an app without signing in, as the gate receives it
 * ({@code GET /api/v1/internal/apps/A/visibility}).
 *
 * @param app            the app's name
 * @param kind           {@code "app"} or {@code "site"}
 * @param visibility     {@code "public"} for a site, {@code "private"} for an app
 * @param sharingVersion the app's sharing version now (a change of kind raises it, like a share)
 * @param accountId      the account whose spending cap the app counts against: its owner's person id
 */
public record AppVisibility(String app, String kind, String visibility, long sharingVersion, long accountId) {

    public static final String PUBLIC = "public";
    public static final String PRIVATE = "private";

    /** The visibility of {@code app} now. */
    public static AppVisibility of(App app) {
        AppKind kind = app.kind();
        return new AppVisibility(app.name(), kind.json(), kind.isPublic() ? PUBLIC : PRIVATE, app.sharingVersion(),
                app.owner().id());
    }
}
