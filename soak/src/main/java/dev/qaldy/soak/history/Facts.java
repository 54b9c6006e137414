package dev.qaldy.soak.history;

/** Names of an {@link Op}'s facts: what the soak knew when it made the request. */
public final class Facts {

    /** The person making it (email), or {@link #ANONYMOUS}. */
    public static final String PERSON = "person";
    /** The session used: a short hash of its token ("" without one). */
    public static final String SESSION = "session";
    /** The app whose origin the session was made for. */
    public static final String SESSION_APP = "sessionApp";
    /** Share, revoke: whom the change is about (email); a site's visitors: {@link #ANONYMOUS}. */
    public static final String SUBJECT = "subject";
    /** The path asked for on an app's origin. */
    public static final String PATH = "path";
    /** The build's marker, on every page of that build (BUILD: the marker it carries; OPEN: the one served). */
    public static final String MARKER = "marker";
    /** A webhook delivery's idempotency key. */
    public static final String KEY = "key";
    /** The hook a delivery went to. */
    public static final String HOOK = "hook";
    /** A 2xx delivery's id, as the API answered it. */
    public static final String DELIVERY = "delivery";
    /** CAP, BILLING: "true" when the API's billing view said the account is asleep. */
    public static final String ASLEEP = "asleep";
    /** The account (owner's email) a CAP, BILLING, USAGE or CREATE_APP concerns. */
    public static final String ACCOUNT = "account";
    /** CREATE_APP, KIND: "site" or "app". */
    public static final String APP_KIND = "appKind";
    /** SHIELD: the perAppPerDay it sets ("null": the plan's). */
    public static final String PER_APP_PER_DAY = "perAppPerDay";
    /** OPEN: "blocked" when sent with a User-Agent the cell's bot rules block. */
    public static final String BOT = "bot";
    /** BUILD: the version the API gave it. */
    public static final String VERSION = "version";
    /** A recovery probe's path ("sign-in", "billing write", …). */
    public static final String PROBE = "probe";
    /** The round a recovery probe belongs to. */
    public static final String ROUND = "round";

    /** "yes" when the answer was the API's problem JSON ({@code application/problem+json}), not a server's bare error page. */
    public static final String PROBLEM = "problem";

    /** Nobody in particular: a visitor without a session. */
    public static final String ANONYMOUS = "anonymous";

    private Facts() {
    }
}
