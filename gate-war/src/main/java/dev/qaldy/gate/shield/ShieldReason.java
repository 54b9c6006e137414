package dev.qaldy.gate.shield;

/** Why the shield refused a request; its value is sent in {@value #HEADER}. */
public enum ShieldReason {
    /** A token bucket (per client or per app) is empty: 429. */
    RATE_LIMIT("rate-limit"),
    /** The app served its plan's requests for today: 429 until the next day. */
    DAILY_LIMIT("daily-limit"),
    /** A blocked or missing user agent, or a request line or headers out of bounds: 403, 405, 414 or 431. */
    BOT_RULE("bot-rule"),
    /** The client's address is in a denied range: 403. */
    DENIED_IP("denied-ip"),
    /**
     * The app owners' settings are unknown (the gate's copy on disk was damaged and the control plane
     * has not been read again yet): 503, as for any answer the gate cannot know.
     */
    SETTINGS_UNKNOWN("settings-unknown");

    /** The response header naming the reason on every request the shield refused. */
    public static final String HEADER = "X-Qaldy-Shield";

    private final String header;

    ShieldReason(String header) {
        this.header = header;
    }

    /** The header value, e.g. {@code rate-limit}. */
    public String header() {
        return header;
    }
}
