package dev.qaldy.runtime.sandbox.entity;

import java.util.List;

/** How one handler call ended. Reasons are for the log; a person sees only the status page. */
public sealed interface HandlerOutcome {

    /** The handler answered within its bounds. */
    record Answered(int status, List<Header> headers, byte[] body) implements HandlerOutcome {
        public Answered {
            headers = List.copyOf(headers);
        }
    }

    /** No handler for this method and path (404). */
    record NoHandler() implements HandlerOutcome {
    }

    /** The script threw, did not load, or answered outside the contract or its bounds (500). */
    record Failed(String reason) implements HandlerOutcome {
    }

    /** The handler did not catch the data API's "unavailable" error: the control plane is down (503). */
    record DataUnavailable(String reason) implements HandlerOutcome {
    }

    /** The call used up its CPU time (504). */
    record TimedOut(long cpuMillis) implements HandlerOutcome {
    }

    /** One response header line. */
    record Header(String name, String value) {
    }
}
