package dev.qaldy.drill.rows;

/**
 * The rows of the seed's table "What keeps working" and the serving side's paragraphs after it
 * (seed: when-the-control-plane-is-down), as the drill reports them: the row's name, what the
 * seed says about it, and how.
 */
public enum SeedRow {

    APPS_ALREADY_OPENED("Apps people already opened", "Keeps working",
            "People who already opened an app keep using it for up to 30 minutes: the gate remembers who may view it,"
                    + " and the runtime host remembers the code."),
    SCHEDULES("Schedules", "Partly",
            "Nothing fires while the API is down. When it returns, a schedule that missed a tick in the last 6 hours runs"
                    + " once, to catch up."),
    WEBHOOKS("Webhooks", "Stops", "Senders get an error and retry if they can."),
    SIGN_IN("Signing in, and opening an app for the first time", "Stops",
            "Signing in and opening an app for the first time need the API. People already signed in to an app are not"
                    + " asked again."),
    CONSOLE("The console", "Partly",
            "The console loads and says the control plane is unreachable; nothing can be changed until it is back."),
    BUILDS("Builds", "Stops", "Builds need the API and the builder. Apps already built are not affected."),
    SITES("Sites", "Keeps working",
            "Pages already served still load; a file that this data centre never served before needs the API."),
    SPENDING_CAP("The spending cap", "Keeps working",
            "The gate and the runtime host keep the last signed state, so apps still go to sleep at the cap with no API"
                    + " at all."),
    SHIELD("The shield", "Keeps working",
            "Rate limits, bot rules and daily limits live in the gate and do not depend on the API."),
    DATA_API("The Backend data API", "Stops (Planned: served from the edge)",
            "The Backend data API is served by the API process today, so it stops with it. Serving it from an edge service is"
                    + " Planned. (Issue 18: reads are served from the runtime host's replica; writes wait.)");

    /** The row's name as the seed writes it. */
    public final String title;
    /** The seed's "Keeps working?" column. */
    public final String keepsWorking;
    /** The seed's "How" column (or paragraph). */
    public final String how;

    SeedRow(String title, String keepsWorking, String how) {
        this.title = title;
        this.keepsWorking = keepsWorking;
        this.how = how;
    }
}
