package dev.qaldy.control.webhooks.control;

import dev.qaldy.control.platform.control.InvalidInput;

/**
 * The idempotency rules of webhook deliveries. A sender names a delivery with
 * {@code Idempotency-Key} (or {@code X-Qaldy-Delivery}); a key already recorded for the hook with
 * the same body is a replay: the same delivery id, no second run. The same key with another body
 * is a conflict (409). No key: every delivery is new.
 */
public final class Idempotency {

    /** What to do with a delivery. */
    public enum Verdict {
        /** Record it and queue a run. */
        NEW,
        /** Answer with the recorded delivery id; queue nothing. */
        REPLAY,
        /** Refuse with 409: the key was used for a different body. */
        CONFLICT
    }

    /** Longest key accepted, in characters. */
    public static final int MAX_KEY_LENGTH = 200;

    private Idempotency() {
    }

    /**
     * The key a sender gave: {@code Idempotency-Key}, else {@code X-Qaldy-Delivery}, trimmed; null when neither.
     *
     * @throws InvalidInput for a key longer than 200 characters or with characters outside printable ASCII
     */
    public static String key(String idempotencyKey, String deliveryHeader) {
        String key = idempotencyKey != null && !idempotencyKey.isBlank() ? idempotencyKey : deliveryHeader;
        if (key == null || key.isBlank()) {
            return null;
        }
        key = key.trim();
        if (key.length() > MAX_KEY_LENGTH || !key.chars().allMatch(c -> c >= 0x21 && c <= 0x7e)) {
            throw new InvalidInput("Idempotency-Key must be 1 to " + MAX_KEY_LENGTH + " printable ASCII characters without spaces");
        }
        return key;
    }

    /**
     * @param recordedSha256 the body hash recorded under the same key, or null when the key is new (or absent)
     * @param bodySha256     this delivery's body hash
     */
    public static Verdict decide(String recordedSha256, String bodySha256) {
        if (recordedSha256 == null) {
            return Verdict.NEW;
        }
        return recordedSha256.equals(bodySha256) ? Verdict.REPLAY : Verdict.CONFLICT;
    }
}
