package dev.qaldy.control.people.entity;

import dev.qaldy.control.platform.control.InvalidInput;
import java.util.Locale;
import java.util.regex.Pattern;

/** The rule for email addresses: trimmed, lower case, a plausible address of at most 254 characters. */
public final class EmailAddress {

    /** Longest address accepted, in characters (RFC 5321's path limit less the angle brackets). */
    public static final int MAX_LENGTH = 254;
    private static final int MAX_LOCAL_LENGTH = 64;
    private static final Pattern SHAPE = Pattern.compile(
            "[a-z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?(\\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)+");

    private EmailAddress() {
    }

    /**
     * Normalizes and checks an address.
     *
     * @return the trimmed, lower-case address
     * @throws InvalidInput naming the rule when it is not a valid address
     */
    public static String normalize(String raw) {
        String email = raw == null ? "" : raw.trim().toLowerCase(Locale.ROOT);
        int at = email.indexOf('@');
        if (email.length() > MAX_LENGTH || at < 1 || at > MAX_LOCAL_LENGTH || !SHAPE.matcher(email).matches()) {
            throw new InvalidInput("email must be a valid address (like ana@example.com) of at most "
                    + MAX_LENGTH + " characters");
        }
        return email;
    }

    /** Like {@link #normalize} but never throws: for sign-in, where a bad address is just a failed attempt. */
    public static String normalizeLeniently(String raw) {
        String email = raw == null ? "" : raw.trim().toLowerCase(Locale.ROOT);
        return email.length() > MAX_LENGTH ? email.substring(0, MAX_LENGTH) : email;
    }
}
