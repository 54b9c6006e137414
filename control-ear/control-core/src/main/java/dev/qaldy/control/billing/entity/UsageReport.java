package dev.qaldy.control.billing.entity;

import dev.qaldy.control.apps.entity.AppName;
import dev.qaldy.control.platform.control.InvalidInput;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Pattern;

/**
 * A batch of usage from the gate or the runtime host: per app, requests and CPU milliseconds.
 * Checked on creation: a batch id, a short reporter name, at most {@link #MAX_ITEMS} lines of
 * well-formed app names and sane counts.
 *
 * @param batchId  the reporter's id for this batch; the same batch sent again has the same id
 * @param reporter who sent it, e.g. {@code gate}; for the records only
 * @param items    usage per app
 */
public record UsageReport(UUID batchId, String reporter, List<Item> items) {

    /** Most lines per batch. */
    public static final int MAX_ITEMS = 1000;
    /** Largest count in one line (requests or CPU ms). */
    public static final long MAX_COUNT = 1_000_000_000_000L;
    private static final Pattern REPORTER = Pattern.compile("[A-Za-z0-9._:@/-]{1,64}");

    /** Usage of one app. */
    public record Item(String app, long requests, long cpuMs) {

        public Item {
            if (!AppName.isWellFormed(app)) {
                throw new InvalidInput("\"app\" must be an app name");
            }
            if (requests < 0 || cpuMs < 0 || requests > MAX_COUNT || cpuMs > MAX_COUNT) {
                throw new InvalidInput("\"requests\" and \"cpuMs\" must be whole numbers from 0 to " + MAX_COUNT);
            }
        }
    }

    public UsageReport {
        if (batchId == null) {
            throw new InvalidInput("\"batchId\" must be a UUID");
        }
        if (reporter == null || !REPORTER.matcher(reporter).matches()) {
            throw new InvalidInput("\"reporter\" must be 1 to 64 letters, digits or ._:@/-");
        }
        if (items == null || items.size() > MAX_ITEMS) {
            throw new InvalidInput("\"items\" must be a list of at most " + MAX_ITEMS + " lines");
        }
        items = List.copyOf(items);
    }

    /** The lines summed per app, in first-seen order. */
    public Map<String, long[]> perApp() {
        Map<String, long[]> apps = new LinkedHashMap<>();
        for (Item item : items) {
            long[] sum = apps.computeIfAbsent(item.app(), a -> new long[2]);
            sum[0] += item.requests();
            sum[1] += item.cpuMs();
        }
        return apps;
    }
}
