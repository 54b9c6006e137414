package dev.qaldy.control.tickets.control;

import dev.qaldy.control.platform.control.InvalidInput;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.HexFormat;

/** Ticket values (256 random bits, URL-safe) and the rules for the path a ticket returns to. */
public final class TicketCodes {

    /** Random bytes per ticket: 256 bits, above the contract's 128. */
    static final int RANDOM_BYTES = 32;
    /** Longest return path, in characters. */
    public static final int MAX_RETURN_PATH = 2048;
    private static final SecureRandom RANDOM = new SecureRandom();

    private TicketCodes() {
    }

    /** A new ticket: 43 URL-safe characters. */
    public static String newTicket() {
        byte[] bytes = new byte[RANDOM_BYTES];
        RANDOM.nextBytes(bytes);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }

    /** What is stored for a ticket: lower-case hex SHA-256 of its text. */
    public static String hash(String ticket) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
                    .digest(ticket.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("this JVM has no SHA-256", e);
        }
    }

    /**
     * Checks a return path: a path on the app's own origin, never another origin
     * ({@code //host}, backslashes and control characters are refused).
     *
     * @throws InvalidInput naming the rule
     */
    public static String checkReturnPath(String path) {
        boolean ok = path != null && path.startsWith("/") && !path.startsWith("//") && path.length() <= MAX_RETURN_PATH
                && path.chars().noneMatch(c -> c == '\\' || c <= 0x20 || c == 0x7f);
        if (!ok) {
            throw new InvalidInput("The returnPath must be a path on the app's origin: starting with a single '/', "
                    + "without spaces, backslashes or control characters, at most " + MAX_RETURN_PATH + " characters");
        }
        return path;
    }
}
