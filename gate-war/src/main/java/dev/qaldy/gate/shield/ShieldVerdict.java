package dev.qaldy.gate.shield;

import dev.qaldy.gate.platform.Page;
import java.util.Map;
import java.util.Objects;

/** The shield's word on one request: let it through, or refuse it with a page and headers. */
public sealed interface ShieldVerdict {

    /**
     * Let through.
     *
     * @param clientAddress the client's address as the shield resolved it (for {@code X-Forwarded-For})
     */
    record Pass(String clientAddress) implements ShieldVerdict {
    }

    /**
     * Refused.
     *
     * @param reason  why, also sent as {@value ShieldReason#HEADER}
     * @param page    what the client is shown
     * @param headers response headers to set, {@code X-Qaldy-Shield} included
     *                ({@code Retry-After} and {@code RateLimit-*} on a 429, {@code Allow} on a 405)
     */
    record Block(ShieldReason reason, Page page, Map<String, String> headers) implements ShieldVerdict {
        public Block {
            Objects.requireNonNull(reason, "reason");
            Objects.requireNonNull(page, "page");
            headers = Map.copyOf(headers);
        }
    }
}
