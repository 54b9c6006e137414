package dev.qaldy.contract.hooks;

import java.nio.charset.StandardCharsets;
import java.security.InvalidKeyException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The signature rule of webhooks, as Stripe does it: header
 * {@code Qaldy-Signature: t=<unix seconds>,v1=<lower-case hex of HMAC-SHA256(secret, "<t>.<raw body>")>}.
 * The timestamp is signed with the body, so a recorded delivery cannot be replayed after the
 * tolerance (config {@code qaldy.webhooks.tolerance}, default 5 min) even under a new delivery id.
 * Several {@code v1} values may be given (one per secret while a sender rotates); one match is
 * enough, and while a hook has several secrets in force a match with any of them is. Other schemes
 * ({@code v0=…}) are ignored. Digests are compared in constant time. The one rule of the cell: the
 * control plane checks deliveries with it, and so does the gate when it queues one at the edge (issue 17).
 */
public final class HookSignature {

    /** The header a sender signs with. */
    public static final String HEADER = "Qaldy-Signature";
    /** The header of the old scheme ({@code sha256=<hex of the body alone>}), refused with a message saying so. */
    public static final String OLD_HEADER = "X-Qaldy-Signature";
    /** Longest header read, in characters (a timestamp and up to {@value #MAX_SIGNATURES} {@code v1} values). */
    static final int MAX_HEADER_LENGTH = 1024;
    /** Most {@code v1} values checked in one header. */
    static final int MAX_SIGNATURES = 8;
    private static final SecureRandom RANDOM = new SecureRandom();

    /** What a header says about a delivery, in the order checked: form, digest, then time. */
    public enum Verdict {
        /** Signed with the secret, within the tolerance. */
        VALID,
        /** No header. */
        MISSING,
        /** Not {@code t=<digits>,v1=<64 hex>[,v1=…]}. */
        MALFORMED,
        /** Well formed, but no {@code v1} is the HMAC of {@code "<t>.<body>"} with the secret. */
        WRONG,
        /** Signed, but {@code t} is more than the tolerance before now. */
        TOO_OLD,
        /** Signed, but {@code t} is more than the tolerance after now. */
        IN_FUTURE
    }

    /** A parsed header: the timestamp and the presented digests. */
    record Parsed(long timestamp, List<byte[]> digests) {
    }

    private HookSignature() {
    }

    /** A new secret: 32 random bytes, base64url without padding (43 characters). */
    public static String newSecret() {
        byte[] bytes = new byte[32];
        RANDOM.nextBytes(bytes);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }

    /** The header value a sender computes at {@code timestamp} (unix seconds): {@code t=<t>,v1=<hex>}. */
    public static String sign(String secret, long timestamp, byte[] body) {
        return "t=" + timestamp + ",v1=" + HexFormat.of().formatHex(hmac(secret, timestamp, body));
    }

    /**
     * Checks a delivery's header against one secret.
     *
     * @param now       the receiver's clock
     * @param tolerance how far {@code t} may be from {@code now}, either way
     */
    public static Verdict check(String secret, byte[] body, String header, Instant now, Duration tolerance) {
        return check(secret == null ? null : List.of(secret), body, header, now, tolerance);
    }

    /**
     * Checks a delivery's header against every secret in force (one match is enough).
     *
     * @param now       the receiver's clock
     * @param tolerance how far {@code t} may be from {@code now}, either way
     */
    public static Verdict check(List<String> secrets, byte[] body, String header, Instant now, Duration tolerance) {
        Verdict signed = signedBy(secrets, body, header);
        if (signed != Verdict.VALID) {
            return signed;
        }
        long age = now.getEpochSecond() - parse(header).timestamp();
        if (age > tolerance.toSeconds()) {
            return Verdict.TOO_OLD;
        }
        if (-age > tolerance.toSeconds()) {
            return Verdict.IN_FUTURE;
        }
        return Verdict.VALID;
    }

    /**
     * Form and digest only, no clock: {@link Verdict#VALID} when a {@code v1} is the HMAC with one of
     * {@code secrets}. For a delivery whose time was checked when it was received (handed over from a
     * gate's queue, issue 17); never for one received now.
     */
    public static Verdict signedBy(List<String> secrets, byte[] body, String header) {
        if (header == null || header.isBlank()) {
            return Verdict.MISSING;
        }
        Parsed parsed = parse(header);
        if (parsed == null || secrets == null || secrets.isEmpty() || body == null) {
            return Verdict.MALFORMED;
        }
        boolean matched = false;
        for (String secret : secrets) {
            byte[] expected = hmac(secret, parsed.timestamp(), body);
            for (byte[] presented : parsed.digests()) {
                matched |= MessageDigest.isEqual(expected, presented); // no early exit: every value is compared
            }
        }
        return matched ? Verdict.VALID : Verdict.WRONG;
    }

    /** The header's timestamp in unix seconds, or null when the header is not well formed. */
    public static Long timestamp(String header) {
        Parsed parsed = header == null ? null : parse(header);
        return parsed == null ? null : parsed.timestamp();
    }

    /** The parts of {@code t=…,v1=…}, or null when it is not exactly one {@code t} and 1 to 8 {@code v1}. */
    static Parsed parse(String header) {
        if (header.length() > MAX_HEADER_LENGTH) {
            return null;
        }
        Long timestamp = null;
        List<byte[]> digests = new ArrayList<>();
        for (String part : header.split(",", -1)) {
            int eq = part.indexOf('=');
            if (eq < 1) {
                return null;
            }
            String key = part.substring(0, eq).trim().toLowerCase(Locale.ROOT);
            String value = part.substring(eq + 1).trim();
            if (key.equals("t")) {
                if (timestamp != null || !value.matches("[0-9]{1,12}")) {
                    return null;
                }
                timestamp = Long.parseLong(value);
            } else if (key.equals("v1")) {
                if (value.length() != 64 || digests.size() == MAX_SIGNATURES) {
                    return null;
                }
                try {
                    digests.add(HexFormat.of().parseHex(value));
                } catch (IllegalArgumentException e) {
                    return null;
                }
            }
        }
        return timestamp == null || digests.isEmpty() ? null : new Parsed(timestamp, digests);
    }

    /**
     * The 401's detail for a refused delivery, the same from the control plane and the gate: what is
     * wrong and how to sign (never a secret or an expected digest).
     *
     * @param oldScheme true when the sender used {@link #OLD_HEADER} instead
     */
    public static String refusal(Verdict verdict, String header, boolean oldScheme, Instant now, Duration tolerance) {
        String how = HEADER + " must be t=<unix seconds>,v1=<hex of HMAC-SHA256 of \"<t>.<raw body>\""
                + " with the hook's secret>, signed at sending time";
        return switch (verdict) {
            case MISSING -> oldScheme
                    ? "the " + OLD_HEADER + " header (sha256=…) is no longer accepted because it can be replayed; " + how
                    : "the signature is missing: " + how;
            case MALFORMED -> "the signature is malformed: " + how;
            case WRONG -> "the signature is wrong: " + how;
            case TOO_OLD -> "signature timestamp too old: t=" + timestamp(header) + " is "
                    + (now.getEpochSecond() - timestamp(header)) + " s before the receiver's clock, more than the "
                    + tolerance.toSeconds() + " s allowed; sign each delivery and each retry when you send it";
            case IN_FUTURE -> "signature timestamp too far in the future: t=" + timestamp(header) + " is "
                    + (timestamp(header) - now.getEpochSecond()) + " s after the receiver's clock, more than the "
                    + tolerance.toSeconds() + " s allowed; check the sender's clock";
            case VALID -> throw new IllegalArgumentException("a valid signature is not refused");
        };
    }

    /** Lower-case hex SHA-256 of a body, recorded with each delivery. */
    public static String sha256(byte[] body) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(body));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("this JVM has no SHA-256", e);
        }
    }

    private static byte[] hmac(String secret, long timestamp, byte[] body) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
            mac.update((timestamp + ".").getBytes(StandardCharsets.US_ASCII));
            return mac.doFinal(body);
        } catch (NoSuchAlgorithmException | InvalidKeyException e) {
            throw new IllegalStateException("this JVM cannot compute HMAC-SHA256", e);
        }
    }
}
