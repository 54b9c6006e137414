package dev.qaldy.gate.shield;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Strict IP literals, never a name lookup: dotted-quad IPv4 (no short or octal forms) and IPv6
 * (brackets allowed, a zone id dropped). {@code ::ffff:10.0.0.1} is the IPv4 address, as Java reads it.
 */
public final class IpLiteral {

    private static final Pattern IPV4 = Pattern.compile(
            "(25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])(\\.(25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])){3}");
    /** Only hex digits, colons and dots with a colon: {@link InetAddress#getByName} then never asks a resolver. */
    private static final Pattern IPV6 = Pattern.compile("(?=[^:]*:)[0-9A-Fa-f:][0-9A-Fa-f:.]*");

    private IpLiteral() {
    }

    public static Optional<InetAddress> parse(String text) {
        if (text == null) {
            return Optional.empty();
        }
        String t = text.trim();
        if (t.startsWith("[") && t.endsWith("]")) {
            t = t.substring(1, t.length() - 1);
        }
        int zone = t.indexOf('%');
        if (zone >= 0 && t.indexOf(':') >= 0) {
            t = t.substring(0, zone);
        }
        if (t.isEmpty() || t.length() > 45) {
            return Optional.empty();
        }
        if (!IPV4.matcher(t).matches() && !IPV6.matcher(t).matches()) {
            return Optional.empty();
        }
        try {
            return Optional.of(InetAddress.getByName(t));
        } catch (UnknownHostException e) {
            return Optional.empty();
        }
    }

    /** As a proxy may write it in {@code X-Forwarded-For}: also {@code 203.0.113.7:51234} or {@code [2001:db8::1]:443}. */
    public static Optional<InetAddress> parseWithPort(String text) {
        if (text == null) {
            return Optional.empty();
        }
        String t = text.trim();
        if (t.startsWith("[")) {
            int close = t.indexOf(']');
            if (close > 0 && (close == t.length() - 1 || t.charAt(close + 1) == ':')) {
                return parse(t.substring(0, close + 1));
            }
            return Optional.empty();
        }
        int colon = t.indexOf(':');
        if (colon > 0 && colon == t.lastIndexOf(':')) {
            return parse(t.substring(0, colon)); // IPv4:port (an IPv6 literal has at least two colons)
        }
        return parse(t);
    }
}
