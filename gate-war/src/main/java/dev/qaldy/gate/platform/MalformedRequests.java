package dev.qaldy.gate.platform;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Method;

/**
 * The Grizzly {@code HttpServerProbe} {@link PayaraHostGuard} installs: before Payara reads them, a
 * Host whose port Grizzly cannot read becomes {@value #REPLACEMENT} and an undecodable path
 * {@value #MALFORMED_PATH}, so the gate answers both with its own 400. Runs per request: plain loops,
 * no regular expressions.
 */
public final class MalformedRequests implements InvocationHandler {

    /** {@code .invalid} can never be a cell's domain (RFC 2606). */
    public static final String REPLACEMENT = "malformed-host.invalid";

    public static final String MALFORMED_PATH = "/.qaldy/malformed-path";

    private static final int MAX_PORT_DIGITS = 5;

    /** No ':' outside brackets, or 1–5 digits after it; a missing value is left to the server. */
    public static boolean wellFormed(String host) {
        if (host == null) {
            return true;
        }
        int from = 0;
        if (host.startsWith("[")) {
            int close = host.indexOf(']');
            if (close < 0) {
                return false;
            }
            from = close + 1;
        }
        int colon = host.indexOf(':', from);
        return colon < 0 ? from == 0 || from == host.length() : digits(host, colon + 1, MAX_PORT_DIGITS);
    }

    /**
     * Every '%' starts a two-hex-digit escape other than {@code %00}, and no segment is {@code .} or
     * {@code ..}; a missing path is left to the server.
     */
    public static boolean decodable(String rawPath) {
        if (rawPath == null) {
            return true;
        }
        for (int i = rawPath.indexOf('%'); i >= 0; i = rawPath.indexOf('%', i + 1)) {
            if (i + 2 >= rawPath.length() || Character.digit(rawPath.charAt(i + 1), 16) < 0
                    || Character.digit(rawPath.charAt(i + 2), 16) < 0
                    || (rawPath.charAt(i + 1) == '0' && rawPath.charAt(i + 2) == '0')) {
                return false;
            }
        }
        for (int start = 0; start <= rawPath.length();) {
            int end = rawPath.indexOf('/', start);
            if (end < 0) {
                end = rawPath.length();
            }
            int length = end - start;
            if (length >= 1 && length <= 2 && rawPath.charAt(start) == '.' && (length == 1 || rawPath.charAt(start + 1) == '.')) {
                return false;
            }
            start = end + 1;
        }
        return true;
    }

    private static boolean digits(String s, int from, int max) {
        int length = s.length() - from;
        if (length < 1 || length > max) {
            return false;
        }
        for (int i = from; i < s.length(); i++) {
            if (s.charAt(i) < '0' || s.charAt(i) > '9') {
                return false;
            }
        }
        return true;
    }


    @Override
    public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
        switch (method.getName()) {
            case "onRequestReceiveEvent" -> guard(args[2]);
            case "hashCode" -> {
                return System.identityHashCode(proxy);
            }
            case "equals" -> {
                return proxy == args[0];
            }
            case "toString" -> {
                return "qaldy Host guard";
            }
            default -> {
                // nothing to do
            }
        }
        return null;
    }

    /** Looked up once, for the one request class the listener uses. */
    private volatile Method getRequest;
    private volatile Method getHeaders;
    private volatile Method values;
    private volatile Method setValue;
    private volatile Method setString;

    private volatile Method getRequestURI;
    private volatile Method setRequestURI;

    private void guard(Object request) throws ReflectiveOperationException {
        guardHost(request);
        Object packet = getRequest.invoke(request);
        if (getRequestURI == null) {
            getRequestURI = packet.getClass().getMethod("getRequestURI");
            setRequestURI = packet.getClass().getMethod("setRequestURI", String.class);
        }
        Object path = getRequestURI.invoke(packet);
        if (!decodable(path == null ? null : path.toString())) {
            setRequestURI.invoke(packet, MALFORMED_PATH);
        }
    }

    private void guardHost(Object request) throws ReflectiveOperationException {
        if (getRequest == null) {
            getRequest = request.getClass().getMethod("getRequest");
        }
        Object packet = getRequest.invoke(request);
        if (getHeaders == null) {
            getHeaders = packet.getClass().getMethod("getHeaders");
        }
        Object headers = getHeaders.invoke(packet);
        if (values == null) {
            values = headers.getClass().getMethod("values", String.class);
            setValue = headers.getClass().getMethod("setValue", String.class);
        }
        for (Object value : (Iterable<?>) values.invoke(headers, "Host")) {
            if (!wellFormed(value == null ? null : value.toString())) {
                Object chunk = setValue.invoke(headers, "Host");
                if (setString == null) {
                    setString = chunk.getClass().getMethod("setString", String.class);
                }
                setString.invoke(chunk, REPLACEMENT);
                return;
            }
        }
    }
}
