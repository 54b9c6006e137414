package dev.qaldy.gate.shield;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;
import java.util.stream.Collectors;

/**
 * The shield's rules on a request's shape: an allowed method, target and headers within the gate's
 * own bounds (the same on every server), a non-empty {@code User-Agent} matching no blocked pattern
 * (the cell's and the app's; a pattern matches anywhere, so write {@code (?i)} and anchors as needed).
 */
public final class BotRules {

    public enum Broken {
        /** 405. */
        METHOD,
        /** Path and query: 414. */
        TARGET_TOO_LONG,
        /** 431. */
        HEADERS_TOO_LARGE,
        /** 403: a policy refusal, not a malformed request. */
        NO_USER_AGENT,
        /** 403. */
        BLOCKED_USER_AGENT
    }

    private final Set<String> allowedMethods;
    private final int maxTargetLength;
    private final int maxHeaderCount;
    private final long maxHeaderBytes;
    private final boolean requireUserAgent;
    private final List<Pattern> blockedUserAgents;

    /**
     * @param maxTargetLength characters of path plus query
     * @param maxHeaderBytes  characters in all header names and values together
     */
    public BotRules(Set<String> allowedMethods, int maxTargetLength, int maxHeaderCount, long maxHeaderBytes,
            boolean requireUserAgent, List<Pattern> blockedUserAgents) {
        this.allowedMethods = allowedMethods.stream().map(m -> m.trim().toUpperCase(Locale.ROOT)).collect(Collectors.toUnmodifiableSet());
        this.maxTargetLength = maxTargetLength;
        this.maxHeaderCount = maxHeaderCount;
        this.maxHeaderBytes = maxHeaderBytes;
        this.requireUserAgent = requireUserAgent;
        this.blockedUserAgents = List.copyOf(blockedUserAgents);
    }

    public Optional<Broken> requestLine(ShieldRequest req) {
        if (req.method() == null || !allowedMethods.contains(req.method())) {
            return Optional.of(Broken.METHOD);
        }
        if (req.targetLength() > maxTargetLength) {
            return Optional.of(Broken.TARGET_TOO_LONG);
        }
        if (req.headerCount() > maxHeaderCount || req.headerBytes() > maxHeaderBytes) {
            return Optional.of(Broken.HEADERS_TOO_LARGE);
        }
        return Optional.empty();
    }

    /** With the app's own patterns added. */
    public Optional<Broken> userAgent(String userAgent, List<Pattern> appBlocked) {
        if (userAgent == null || userAgent.isBlank()) {
            return requireUserAgent ? Optional.of(Broken.NO_USER_AGENT) : Optional.empty();
        }
        if (matchesAny(blockedUserAgents, userAgent) || matchesAny(appBlocked, userAgent)) {
            return Optional.of(Broken.BLOCKED_USER_AGENT);
        }
        return Optional.empty();
    }

    public Set<String> allowedMethods() {
        return allowedMethods;
    }

    public List<Pattern> blockedUserAgents() {
        return blockedUserAgents;
    }

    private static boolean matchesAny(List<Pattern> patterns, String value) {
        for (Pattern pattern : patterns) {
            if (pattern.matcher(value).find()) {
                return true;
            }
        }
        return false;
    }

    /**
     * Compiles a comma-separated list of regular expressions; a comma inside one is {@code \,}
     * (MicroProfile Config's list escape).
     *
     * @throws IllegalArgumentException naming the first pattern that does not compile
     */
    public static List<Pattern> patterns(String list) {
        List<Pattern> out = new ArrayList<>();
        if (list == null) {
            return out;
        }
        for (String entry : list.split("(?<!\\\\),")) {
            String regex = entry.replace("\\,", ",").trim();
            if (regex.isEmpty()) {
                continue;
            }
            try {
                out.add(Pattern.compile(regex));
            } catch (PatternSyntaxException e) {
                throw new IllegalArgumentException("not a regular expression: " + regex + " (" + e.getDescription() + ")", e);
            }
        }
        return out;
    }
}
