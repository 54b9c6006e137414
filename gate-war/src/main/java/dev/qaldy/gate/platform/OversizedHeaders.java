package dev.qaldy.gate.platform;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Method;

/**
 * A Grizzly {@code HttpProbe} (added by {@link PayaraHostGuard} to each HTTP codec filter of Payara
 * Micro) that gives a request Grizzly refuses for its size the status that says why: 431 for headers
 * past the listener's {@code header-buffer-length-bytes}, 414 for a request line past it, where
 * Grizzly answered an empty 400 (issue 20). Grizzly tells its probes before it answers, and keeps a
 * status of 400 or more that the response already has. Its answer still has no body: no application
 * code runs for such a request, so the gate's own page cannot be sent; below that bound the gate's
 * shield answers with its page ({@link Page#headersTooLarge}, {@link Page#uriTooLong}).
 */
final class OversizedHeaders implements InvocationHandler {

    /** Grizzly's message (HttpCodecFilter) for headers past the bound. */
    static final String HEADERS_TOO_LARGE = "HTTP packet header is too large";
    /** Grizzly's message for a request line past the bound (its spelling). */
    static final String LINE_TOO_LARGE = "HTTP packet intial line is too large";

    /** The status for Grizzly's parse error {@code message}, or 0 to leave its answer alone. */
    static int statusFor(String message) {
        if (HEADERS_TOO_LARGE.equals(message)) {
            return 431;
        }
        return LINE_TOO_LARGE.equals(message) ? 414 : 0;
    }

    @Override
    public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
        return switch (method.getName()) {
            case "onErrorEvent" -> {
                refuse(args[1], args[2] instanceof Throwable t ? t.getMessage() : null);
                yield null;
            }
            case "hashCode" -> System.identityHashCode(proxy);
            case "equals" -> proxy == args[0];
            case "toString" -> "qaldy oversized-header status";
            default -> null;
        };
    }

    /** Sets the status on the request's response ({@code packet}: Grizzly's {@code HttpRequestPacket}), if it has one. */
    private static void refuse(Object packet, String message) throws ReflectiveOperationException {
        int status = statusFor(message);
        if (status == 0 || packet == null) {
            return;
        }
        Method getResponse;
        try {
            getResponse = packet.getClass().getMethod("getResponse");
        } catch (NoSuchMethodException notARequest) {
            return;
        }
        Object response = getResponse.invoke(packet);
        if (response != null) {
            response.getClass().getMethod("setStatus", int.class).invoke(response, status);
        }
    }
}
