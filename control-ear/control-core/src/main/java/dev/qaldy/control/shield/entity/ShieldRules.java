package dev.qaldy.control.shield.entity;

import dev.qaldy.control.platform.control.InvalidInput;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * An owner's shield settings for one app, checked: each number is absent (the plan's value) or
 * 1..{@value #MAX_NUMBER}; at most {@value #MAX_PATTERNS} user-agent patterns (Java regular
 * expressions, each at most {@value #MAX_PATTERN_LENGTH} characters, no newline) and at most
 * {@value #MAX_RANGES} denied address ranges (IPv4 or IPv6 CIDR literals); the zone of the app's day
 * absent (the gate's default, {@code qaldy.gate.shield.day-zone}, UTC) or an IANA region id such as
 * {@code Europe/Berlin} (at most {@value #MAX_ZONE_LENGTH} characters; no fixed offsets such as
 * {@code +01:00}, which know no daylight saving time). The gate applies a number
 * only where it is lower than the app's plan: an owner can tighten the shield, never loosen it.
 *
 * @param perClientPerMinute requests a minute per client address, or null
 * @param perAppPerMinute    requests a minute for everyone together, or null
 * @param perAppPerDay       requests a day (the gate's day), or null
 * @param blockedUserAgents  patterns searched in the User-Agent, in addition to the cell's
 * @param deniedCidrs        address ranges refused, in addition to the cell's
 * @param dayZone            the zone whose days the daily limit counts, or null (the gate's default)
 */
public record ShieldRules(Long perClientPerMinute, Long perAppPerMinute, Long perAppPerDay, List<String> blockedUserAgents,
        List<String> deniedCidrs, String dayZone) {

    public static final long MAX_NUMBER = 1_000_000_000L;
    public static final int MAX_PATTERNS = 20;
    public static final int MAX_PATTERN_LENGTH = 200;
    public static final int MAX_RANGES = 50;
    public static final int MAX_ZONE_LENGTH = 64;

    /** No settings of its own: the plan's limits, nothing extra blocked. */
    public static final ShieldRules NONE = new ShieldRules(null, null, null, List.of(), List.of(), null);

    private static final Pattern IPV4 = Pattern.compile("[0-9]{1,3}(\\.[0-9]{1,3}){3}");
    private static final Pattern IPV6 = Pattern.compile("(?=[^:]*:)[0-9A-Fa-f:][0-9A-Fa-f:.]*");

    /** @throws InvalidInput naming the first rule broken */
    public ShieldRules {
        number("perClientPerMinute", perClientPerMinute);
        number("perAppPerMinute", perAppPerMinute);
        number("perAppPerDay", perAppPerDay);
        blockedUserAgents = List.copyOf(blockedUserAgents == null ? List.of() : blockedUserAgents);
        deniedCidrs = List.copyOf(deniedCidrs == null ? List.of() : deniedCidrs);
        if (blockedUserAgents.size() > MAX_PATTERNS) {
            throw new InvalidInput("at most " + MAX_PATTERNS + " blockedUserAgents patterns");
        }
        for (String p : blockedUserAgents) {
            pattern(p);
        }
        if (deniedCidrs.size() > MAX_RANGES) {
            throw new InvalidInput("at most " + MAX_RANGES + " deniedCidrs ranges");
        }
        for (String c : deniedCidrs) {
            cidr(c);
        }
        zone(dayZone);
    }

    /** Settings without a zone of their own (the gate's default zone). */
    public ShieldRules(Long perClientPerMinute, Long perAppPerMinute, Long perAppPerDay, List<String> blockedUserAgents,
            List<String> deniedCidrs) {
        this(perClientPerMinute, perAppPerMinute, perAppPerDay, blockedUserAgents, deniedCidrs, null);
    }

    /** True when nothing is set. */
    public boolean none() {
        return perClientPerMinute == null && perAppPerMinute == null && perAppPerDay == null
                && blockedUserAgents.isEmpty() && deniedCidrs.isEmpty() && dayZone == null;
    }

    /** For the audit log, e.g. {@code perClientPerMinute=plan; …; perAppPerDay=3; 1 user-agent patterns; 0 denied ranges; dayZone=Europe/Berlin}. */
    public String summary() {
        return "perClientPerMinute=" + text(perClientPerMinute) + "; perAppPerMinute=" + text(perAppPerMinute)
                + "; perAppPerDay=" + text(perAppPerDay) + "; " + blockedUserAgents.size() + " user-agent patterns; "
                + deniedCidrs.size() + " denied ranges; dayZone=" + (dayZone == null ? "default" : dayZone);
    }

    /**
     * Null, or a region id of the IANA time zone database as Java knows it ({@code Europe/Berlin},
     * {@code UTC}, {@code Etc/GMT-14}); never a bare offset or {@code UTC+1}-style id.
     */
    private static void zone(String id) {
        if (id == null) {
            return;
        }
        if (id.isEmpty() || id.length() > MAX_ZONE_LENGTH) {
            throw new InvalidInput("\"dayZone\" must be null (the gate's default, UTC) or a time zone name of 1.."
                    + MAX_ZONE_LENGTH + " characters, e.g. Europe/Berlin");
        }
        if (!ZoneId.getAvailableZoneIds().contains(id)) {
            throw new InvalidInput("\"dayZone\" is not a time zone name (IANA, e.g. Europe/Berlin or UTC; offsets such as "
                    + "+01:00 are not accepted): " + id);
        }
    }

    private static String text(Long n) {
        return n == null ? "plan" : n.toString();
    }

    private static void number(String field, Long value) {
        if (value != null && (value < 1 || value > MAX_NUMBER)) {
            throw new InvalidInput("\"" + field + "\" must be null (the plan's value) or 1.." + MAX_NUMBER);
        }
    }

    private static void pattern(String regex) {
        if (regex == null || regex.isBlank() || regex.length() > MAX_PATTERN_LENGTH || regex.indexOf('\n') >= 0
                || regex.indexOf('\r') >= 0) {
            throw new InvalidInput("each blockedUserAgents pattern is 1.." + MAX_PATTERN_LENGTH + " characters on one line");
        }
        try {
            Pattern.compile(regex);
        } catch (PatternSyntaxException e) {
            throw new InvalidInput("The blocked user agent \"" + regex + "\" is not a pattern Qaldy can read (" + e.getDescription()
                    + "). Write it as a regular expression, like sqlmap|nikto, or remove it.");
        }
    }

    /** An IP literal with an optional prefix length in range; never a name lookup. */
    static void cidr(String text) {
        String t = text == null ? "" : text.trim();
        int slash = t.indexOf('/');
        String address = slash < 0 ? t : t.substring(0, slash);
        int bits;
        if (IPV4.matcher(address).matches()) {
            for (String part : address.split("\\.")) {
                if (Integer.parseInt(part) > 255) {
                    throw badRange(text);
                }
            }
            bits = 32;
        } else if (IPV6.matcher(address).matches() && address.length() <= 45) {
            try {
                InetAddress.getByName(address);
            } catch (UnknownHostException e) {
                throw badRange(text);
            }
            bits = 128;
        } else {
            throw badRange(text);
        }
        if (slash >= 0) {
            String p = t.substring(slash + 1);
            if (!p.matches("[0-9]{1,3}") || Integer.parseInt(p) > bits) {
                throw badRange(text);
            }
        }
    }

    private static InvalidInput badRange(String text) {
        return new InvalidInput("not an IP range (address or address/prefix): " + text);
    }

    /** Lines of a stored list (newline-separated); none for null or blank. */
    public static List<String> lines(String stored) {
        List<String> out = new ArrayList<>();
        if (stored != null) {
            for (String line : stored.split("\n")) {
                if (!line.isBlank()) {
                    out.add(line);
                }
            }
        }
        return out;
    }
}
