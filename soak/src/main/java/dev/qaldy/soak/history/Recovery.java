package dev.qaldy.soak.history;

import java.util.List;
import java.util.Map;

/**
 * The recovery probe after a round's last fault healed: when each path first worked again.
 *
 * @param round   the round
 * @param healed  when the round's last fault healed (epoch ms)
 * @param firstOk each path ({@link #PATHS}) → epoch ms of its first success, -1 never (until {@code gaveUp})
 * @param gaveUp  when the probe stopped trying
 */
public record Recovery(int round, long healed, Map<String, Long> firstOk, long gaveUp) {

    /** The paths a person needs after an outage (issue 14: "nothing is left wedged"). */
    public static final List<String> PATHS = List.of("sign-in", "billing write", "cap change", "build", "first opening");

    public Recovery {
        firstOk = Map.copyOf(firstOk);
    }

    /** Ms from the heal until every path had worked; -1 when one never did. */
    public long recoveryMs() {
        long last = healed;
        for (String path : PATHS) {
            long at = firstOk.getOrDefault(path, -1L);
            if (at < 0) {
                return -1;
            }
            last = Math.max(last, at);
        }
        return last - healed;
    }
}
