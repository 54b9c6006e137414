package dev.qaldy.soak.history;

/** What one recorded request was, as a person or the soak made it. */
public enum Kind {
    /** A page of an app's or a site's own origin (GET), with or without a session. */
    OPEN,
    /** {@code POST /api/v1/tickets}: a one-time ticket to open an app. */
    TICKET,
    /** The ticket followed on the app's origin: the gate's 302 sets the session cookie. */
    REDEEM,
    /** {@code /.qaldy/signout} on an app's origin. */
    SIGN_OUT,
    /** {@code POST /api/v1/sessions}. */
    SIGN_IN,
    /** {@code POST /api/v1/people}. */
    SIGN_UP,
    /** {@code POST /api/v1/apps/<app>/shares}: the subject may open the app. */
    SHARE,
    /** {@code DELETE /api/v1/apps/<app>/shares/<email>}: the subject may no longer. */
    REVOKE,
    /** {@code POST /api/v1/apps}: the owner may open it (a site: anyone may). */
    CREATE_APP,
    /** {@code DELETE /api/v1/apps/<app>}: nobody may open it, and none of its versions comes back. */
    DELETE_APP,
    /** {@code PUT /api/v1/apps/<app>/kind}: a public site (anyone) or an app (sign-in) again. */
    KIND,
    /** {@code POST /api/v1/apps/<app>/builds}: a new version, whose pages carry its marker. */
    BUILD,
    /** {@code PUT /api/v1/apps/<app>/live}. */
    PROMOTE,
    /** {@code PUT /api/v1/billing/cap}: the answer is the billing view, asleep or not. */
    CAP,
    /** {@code GET /api/v1/billing}: asleep or not, as the API last said. */
    BILLING,
    /** {@code POST /api/v1/internal/usage}, as a gate reports what it counted. */
    USAGE,
    /** {@code PUT /api/v1/apps/<app>/shield}. */
    SHIELD,
    /** One attempt of a webhook delivery ({@code POST /hooks/<app>/<hook>}). */
    WEBHOOK,
    /** {@code POST /api/v1/apps/<app>/schedules} or {@code …/hooks}, and other set-up calls. */
    SETUP,
    /** A read of the API that decides nothing (a build's status, the runs). */
    READ;

    /** A change of who may open an app: the sharing version moves, every gate drops its copies of the app. */
    public boolean changesSharing() {
        return this == SHARE || this == REVOKE || this == CREATE_APP || this == DELETE_APP || this == KIND;
    }
}
