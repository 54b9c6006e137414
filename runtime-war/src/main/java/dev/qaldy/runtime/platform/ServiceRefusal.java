package dev.qaldy.runtime.platform;

import dev.qaldy.contract.keys.ServiceKeyring;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;

/**
 * The runtime host's answer to a service call whose credential its endpoint does not accept
 * (issue 16): an unknown one is 401; one of the cell's made for another direction (the control
 * plane's job credential on the gate's path, or the reverse) is 403; both are logged per client
 * address and minute ({@link CellCredentials#refused}).
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
            CellCredentials credentials, String what) throws IOException {
        switch (verdict) {
            case ACCEPTED -> {
                return true;
            }
            case WRONG_DIRECTION -> {
                credentials.refused(what + " with a credential made for another of the cell's calls", request.getRemoteAddr());
                ErrorPages.write(response, 403, "forbidden", "Wrong credential",
                        "The runtime host's endpoints take the credential made for them; this one is for another of the cell's calls.", null);
            }
            default -> {
                credentials.refused(what + " without the service token", request.getRemoteAddr());
                ErrorPages.write(response, 401, "unauthorized", "Unauthorized", "The runtime host answers the cell only.", null);
            }
        }
        return false;
    }
}
