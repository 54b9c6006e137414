package dev.qaldy.gate.shield;

import java.net.InetAddress;
import java.util.ArrayList;
import java.util.List;

/** A list of {@link Cidr} ranges, as config writes it: comma-separated, blanks ignored. */
public record IpRanges(List<Cidr> ranges) {

    /** No ranges: matches nothing. */
    public static final IpRanges NONE = new IpRanges(List.of());

    public IpRanges {
        ranges = List.copyOf(ranges);
    }

    /**
     * Parses a comma-separated list ({@code "10.0.0.0/8, 2001:db8::/32"}); null or blank is none.
     *
     * @throws IllegalArgumentException naming the first entry that is not a range
     */
    public static IpRanges parse(String list) {
        if (list == null || list.isBlank()) {
            return NONE;
        }
        List<Cidr> out = new ArrayList<>();
        for (String entry : list.split(",")) {
            if (!entry.isBlank()) {
                out.add(Cidr.parse(entry));
            }
        }
        return new IpRanges(out);
    }

    /** True when any range contains {@code address}. */
    public boolean contains(InetAddress address) {
        for (Cidr range : ranges) {
            if (range.contains(address)) {
                return true;
            }
        }
        return false;
    }

    public boolean isEmpty() {
        return ranges.isEmpty();
    }

    /** These ranges and {@code more}. */
    public IpRanges plus(IpRanges more) {
        if (more.isEmpty()) {
            return this;
        }
        if (isEmpty()) {
            return more;
        }
        List<Cidr> all = new ArrayList<>(ranges);
        all.addAll(more.ranges);
        return new IpRanges(all);
    }

    @Override
    public String toString() {
        return ranges.toString();
    }
}
