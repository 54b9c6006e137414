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
 * The shield's rules on what a request looks like: a method from the allow list, a request
 * target and headers within bounds (Payara bounds headers too; these are the gate's own limits,
 * the same on every server), a non-empty {@code User-Agent}, and none of the blocked user-agent
 * patterns (the cell's and the app's; a pattern matches anywhere in the value, so write
 * {@code (?i)} for case-insensitive and anchors where they matter).
 */
public final class BotRules {

    /** Which rule a request broke. */
    public enum Broken {
        /** A method not in the allow list: 405. */
        METHOD,
        /** The request target (path and query) is too long: 414. */
        TARGET_TOO_LONG,
        /** Too many header lines, or too many characters in them: 431. */
        HEADERS_TOO_LARGE,
        /** No {@code User-Agent}, or a blank one: 403 (a policy refusal, not a malformed request). */
        NO_USER_AGENT,
        /** The {@code User-Agent} matches a blocked pattern: 403. */
        BLOCKED_USER_AGENT
    }

    private final Set<String> allowedMethods;
    private final int maxTargetLength;
    private final int maxHeaderCount;
    private final long maxHeaderBytes;
    private final boolean requireUserAgent;
    private final List<Pattern> blockedUserAgents;

    /**
     * @param allowedMethods    methods let through (upper case)
     * @param maxTargetLength   most characters of path plus query
     * @param maxHeaderCount    most header lines
     * @param maxHeaderBytes    most characters in all header names and values together
     * @param requireUserAgent  refuse requests without a User-Agent
     * @param blockedUserAgents the cell's blocked patterns
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

    /** The first request-line or header rule {@code req} breaks, if any. */
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

    /** The user-agent rule {@code userAgent} breaks, if any, with the app's own patterns added. */
    public Optional<Broken> userAgent(String userAgent, List<Pattern> appBlocked) {
        if (userAgent == null || userAgent.isBlank()) {
            return requireUserAgent ? Optional.of(Broken.NO_USER_AGENT) : Optional.empty();
        }
        if (matchesAny(blockedUserAgents, userAgent) || matchesAny(appBlocked, userAgent)) {
            return Optional.of(Broken.BLOCKED_USER_AGENT);
        }
        return Optional.empty();
    }

    /** The allowed methods, for the {@code Allow} header of a 405. */
    public Set<String> allowedMethods() {
        return allowedMethods;
    }

    /** The cell's blocked patterns. */
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
     * Compiles a comma-separated list of regular expressions; a comma inside one is written
     * {@code \,} (MicroProfile Config's list escape). Blank entries are skipped.
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
