package dev.qaldy.runtime.platform;

import dev.qaldy.contract.keys.ServiceKeyring;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The runtime host's answer to a service call whose credential its endpoint does not accept
 * (issue 16): an unknown one is 401; one of the cell's made for another direction (the control
 * plane's job credential on the gate's path, or the reverse) is 403 with a WARNING naming the call.
 */
public final class ServiceRefusal {

    private ServiceRefusal() {
    }

    /**
     * Whether {@code verdict} admits the call; otherwise the refusal is written.
     *
     * @param what what the call is, for the log (e.g. "a job")
     */
    public static boolean admitted(ServiceKeyring.Verdict verdict, HttpServletRequest request, HttpServletResponse response,
            Logger log, String what) throws IOException {
        switch (verdict) {
            case ACCEPTED -> {
                return true;
            }
            case WRONG_DIRECTION -> {
                log.log(Level.WARNING, "refused {0} to {1} from {2}: its credential is made for another of the cell''s calls",
                        new Object[] {what, request.getRequestURI(), request.getRemoteAddr()});
                ErrorPages.write(response, 403, "forbidden", "Wrong credential",
                        "The runtime host's endpoints take the credential made for them; this one is for another of the cell's calls.", null);
            }
            default -> ErrorPages.write(response, 401, "unauthorized", "Unauthorized", "The runtime host answers the cell only.", null);
        }
        return false;
    }
}
