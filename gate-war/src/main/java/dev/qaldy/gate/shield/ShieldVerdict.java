package dev.qaldy.gate.shield;

import dev.qaldy.gate.platform.Page;
import java.util.Map;
import java.util.Objects;

/** The shield's word on one request. */
public sealed interface ShieldVerdict {

    /** @param clientAddress as the shield resolved it, for {@code X-Forwarded-For} */
    record Pass(String clientAddress) implements ShieldVerdict {
    }

    /** @param headers {@code X-Qaldy-Shield}, plus {@code Retry-After} and {@code RateLimit-*} on a 429, {@code Allow} on a 405 */
    record Block(ShieldReason reason, Page page, Map<String, String> headers) implements ShieldVerdict {
        public Block {
            Objects.requireNonNull(reason, "reason");
            Objects.requireNonNull(page, "page");
            headers = Map.copyOf(headers);
        }
    }
}
