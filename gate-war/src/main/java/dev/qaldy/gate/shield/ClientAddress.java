package dev.qaldy.gate.shield;

import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Who is asking, by network address: the TCP peer, unless it is a trusted proxy; then
 * {@code X-Forwarded-For} is read from the right, skipping trusted proxies, and the first other
 * address is the client. So only what a trusted proxy appended counts. A non-IP entry stops the walk
 * at the last trusted hop; when every hop is trusted the left-most is the client. RFC 7239
 * {@code Forwarded} is not read.
 */
public final class ClientAddress {

    private final IpRanges trustedProxies;
    private final int ipv6Prefix;

    /** @param ipv6Prefix IPv6 clients are counted per network of this length (one person usually holds a /64) */
    public ClientAddress(IpRanges trustedProxies, int ipv6Prefix) {
        if (ipv6Prefix < 1 || ipv6Prefix > 128) {
            throw new IllegalArgumentException("the IPv6 client prefix must be 1..128: " + ipv6Prefix);
        }
        this.trustedProxies = trustedProxies;
        this.ipv6Prefix = ipv6Prefix;
    }

    /**
     * Empty only when the peer itself is not an IP address.
     *
     * @param forwardedFor every {@code X-Forwarded-For} header value, in the order received
     */
    public Optional<InetAddress> resolve(String peer, List<String> forwardedFor) {
        Optional<InetAddress> direct = IpLiteral.parse(peer);
        if (direct.isEmpty() || !trustedProxies.contains(direct.get())) {
            return direct;
        }
        List<String> hops = new ArrayList<>();
        for (String value : forwardedFor) {
            if (value != null) {
                for (String hop : value.split(",")) {
                    if (!hop.isBlank()) {
                        hops.add(hop);
                    }
                }
            }
        }
        InetAddress last = direct.get();
        for (int i = hops.size() - 1; i >= 0; i--) {
            Optional<InetAddress> hop = IpLiteral.parseWithPort(hops.get(i));
            if (hop.isEmpty()) {
                return Optional.of(last);
            }
            last = hop.get();
            if (!trustedProxies.contains(last)) {
                return Optional.of(last);
            }
        }
        return Optional.of(last);
    }

    /** The IPv4 address, or the IPv6 network (e.g. {@code 2001:db8:1:2:0:0:0:0/64}); {@code unknown} for none. */
    public String key(Optional<InetAddress> client) {
        if (client.isEmpty()) {
            return "unknown";
        }
        InetAddress address = client.get();
        if (address instanceof Inet6Address && ipv6Prefix < 128) {
            try {
                return InetAddress.getByAddress(Cidr.mask(address.getAddress(), ipv6Prefix)).getHostAddress() + "/" + ipv6Prefix;
            } catch (UnknownHostException e) {
                throw new IllegalStateException(e); // cannot happen: 16 bytes
            }
        }
        return address.getHostAddress();
    }
}
