package dev.qaldy.soak.history;

import java.util.List;

/**
 * One run of an app's job as the API listed it at the end of the soak (a schedule's tick, a
 * catch-up, a webhook delivery).
 *
 * @param app       the app
 * @param id        the run's id
 * @param schedule  the schedule's id, null for a webhook's run
 * @param hook      the hook's name, null for a schedule's
 * @param actor     "scheduler", "scheduler.catchup" or "webhook"
 * @param state     queued, waiting-for-cap, running, succeeded, failed
 * @param tick      the tick it stands for (epoch ms), -1 for none
 * @param createdAt when the control plane queued it (epoch ms)
 * @param log       its log lines (the job's console.log, or why it failed)
 */
public record Run(String app, long id, Long schedule, String hook, String actor, String state, long tick, long createdAt,
        List<String> log) {

    public Run {
        log = List.copyOf(log);
    }

    /** Whether the run is done (succeeded or failed). */
    public boolean ended() {
        return state.equals("succeeded") || state.equals("failed");
    }

    /** "run 41 (webhook, failed): the runtime host could not be reached…". */
    public String line() {
        return "run " + id + " of " + app + " (" + actor + (schedule != null ? ", schedule " + schedule : "")
                + (hook != null ? ", hook " + hook : "") + (tick >= 0 ? ", tick " + java.time.Instant.ofEpochMilli(tick) : "")
                + ", " + state + ")" + (log.isEmpty() ? "" : ": " + String.join(" / ", log));
    }
}
