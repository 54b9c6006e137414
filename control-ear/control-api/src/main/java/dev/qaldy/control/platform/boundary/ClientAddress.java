package dev.qaldy.control.platform.boundary;

import jakarta.servlet.http.HttpServletRequest;
import java.util.Collections;
import java.util.List;
import java.util.Set;

/**
 * The address of the client behind a request to the API. The gate forwards people's API calls and
 * names the client it resolved in {@code X-Forwarded-For}; that header is believed only when the
 * TCP peer is one of {@code qaldy.api.trusted-proxies} (default: loopback, where the cell's gate
 * runs), and then only its right-most entry, the one the gate wrote. Otherwise the peer is the client.
 */
public final class ClientAddress {

    /** Longest address returned, in characters; longer values are cut (they are only keys). */
    public static final int MAX_LENGTH = 64;
    /** The peers believed by default: the loopback addresses as servlet containers write them. */
    public static final Set<String> LOOPBACK = Set.of("127.0.0.1", "::1", "0:0:0:0:0:0:0:1");

    private ClientAddress() {
    }

    /**
     * @param trustedProxies peers whose {@code X-Forwarded-For} is believed, as exact address literals
     * @return the client's address, never {@code null} or longer than {@link #MAX_LENGTH}
     */
    public static String of(HttpServletRequest request, Set<String> trustedProxies) {
        String peer = request.getRemoteAddr() == null ? "unknown" : request.getRemoteAddr();
        return bounded(trustedProxies.contains(peer) ? lastForwarded(Collections.list(request.getHeaders("X-Forwarded-For")), peer) : peer);
    }

    /** The right-most non-empty entry of the {@code X-Forwarded-For} values, else {@code fallback}. */
    static String lastForwarded(List<String> values, String fallback) {
        for (int i = values.size() - 1; i >= 0; i--) {
            String[] entries = values.get(i).split(",");
            for (int j = entries.length - 1; j >= 0; j--) {
                String entry = entries[j].trim();
                if (!entry.isEmpty()) {
                    return entry;
                }
            }
        }
        return fallback;
    }

    static String bounded(String address) {
        return address.length() > MAX_LENGTH ? address.substring(0, MAX_LENGTH) : address;
    }
}
