package dev.qaldy.gate.shield;

import java.net.Inet4Address;
import java.net.InetAddress;
import java.util.Arrays;

/**
 * One IP range in CIDR notation; a bare address is a range of one. IPv4 and IPv6 never match each
 * other, except that an IPv4-mapped range ({@code ::ffff:10.0.0.0/104}) is the IPv4 range. Host bits
 * are ignored ({@code 10.1.2.3/8} is {@code 10.0.0.0/8}).
 */
public final class Cidr {

    private final byte[] network;
    private final int prefix;

    private Cidr(byte[] network, int prefix) {
        this.network = mask(network, prefix);
        this.prefix = prefix;
    }

    /** @throws IllegalArgumentException when it is not {@code address[/prefix]} with a prefix in range */
    public static Cidr parse(String text) {
        String t = text == null ? "" : text.trim();
        int slash = t.indexOf('/');
        String address = slash < 0 ? t : t.substring(0, slash);
        InetAddress ip = IpLiteral.parse(address)
                .orElseThrow(() -> new IllegalArgumentException("not an IP range: " + text));
        int bits = ip.getAddress().length * 8;
        int prefix = bits;
        if (slash >= 0) {
            String p = t.substring(slash + 1);
            if (!p.matches("[0-9]{1,3}")) {
                throw new IllegalArgumentException("bad prefix length in IP range: " + text);
            }
            prefix = Integer.parseInt(p);
            if (ip instanceof Inet4Address && address.indexOf(':') >= 0) {
                prefix -= 96; // written as IPv4-mapped IPv6: ::ffff:a.b.c.d/(96 + n)
                if (prefix < 0) {
                    throw new IllegalArgumentException("an IPv4-mapped range needs a prefix of at least 96: " + text);
                }
            }
            if (prefix > bits) {
                throw new IllegalArgumentException("prefix length longer than the address in IP range: " + text);
            }
        }
        return new Cidr(ip.getAddress(), prefix);
    }

    public boolean contains(InetAddress address) {
        byte[] a = address.getAddress();
        if (a.length != network.length) {
            return false;
        }
        int full = prefix / 8;
        for (int i = 0; i < full; i++) {
            if (a[i] != network[i]) {
                return false;
            }
        }
        int rest = prefix % 8;
        if (rest == 0) {
            return true;
        }
        int m = (0xff << (8 - rest)) & 0xff;
        return (a[full] & m) == (network[full] & 0xff);
    }

    public int prefix() {
        return prefix;
    }

    /** E.g. {@code 10.0.0.0/8}. */
    @Override
    public String toString() {
        try {
            return InetAddress.getByAddress(network).getHostAddress() + "/" + prefix;
        } catch (java.net.UnknownHostException e) {
            throw new IllegalStateException(e); // cannot happen: 4 or 16 bytes
        }
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Cidr c && prefix == c.prefix && Arrays.equals(network, c.network);
    }

    @Override
    public int hashCode() {
        return 31 * Arrays.hashCode(network) + prefix;
    }

    /** A copy. */
    static byte[] mask(byte[] address, int prefix) {
        byte[] out = address.clone();
        for (int i = 0; i < out.length; i++) {
            int keep = Math.max(0, Math.min(8, prefix - i * 8));
            out[i] = (byte) (out[i] & ((0xff << (8 - keep)) & 0xff));
        }
        return out;
    }
}
