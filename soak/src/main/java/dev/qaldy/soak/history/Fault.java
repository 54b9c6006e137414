package dev.qaldy.soak.history;

/**
 * One fault the soak made, timed on its side (epoch ms). From {@code down} to {@code up} the
 * component certainly served nothing; from {@code start} to {@code ready} it may not have (a
 * graceful stop still answers while it drains; a started process answers before its start
 * command returns).
 *
 * @param round     the round of the fault timeline it belongs to, from 1
 * @param component "control", "db", "gate", …
 * @param kind      how it was taken away
 * @param start     when the soak began taking it away
 * @param down      from when it certainly served nothing (kill or stop returned; SIGSTOP sent)
 * @param up        when the soak began bringing it back (start issued; SIGCONT sent)
 * @param ready     when it was back (start returned ready; SIGCONT sent); -1: not within the run
 * @param note      what the commands said, when it matters ("start exited 3: waits for its database")
 */
public record Fault(int round, String component, FaultKind kind, long start, long down, long up, long ready, String note) {

    /** The end of the window in which it may have been away: {@code ready}, or {@code otherwise} when it never was. */
    public long readyOr(long otherwise) {
        return ready < 0 ? otherwise : ready;
    }

    /** How long it took from the soak's "come back" to back, ms; -1 when it never came back. */
    public long restartMs() {
        return ready < 0 ? -1 : ready - up;
    }

    /** "round 2: control killed (SIGKILL), then started": one line for a report. */
    public String line() {
        return "round " + round + ": " + component + " " + kind.said + (note.isEmpty() ? "" : " (" + note + ")");
    }
}
