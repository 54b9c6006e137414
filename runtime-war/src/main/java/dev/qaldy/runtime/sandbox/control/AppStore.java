package dev.qaldy.runtime.sandbox.control;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * A tiny per-app memory that handlers reach as {@code store}: named lists of JSON items, each list
 * keeping its newest {@value #MAX_ITEMS} items. It lives in this runtime host's memory only: it
 * is not shared between hosts and is gone when the host restarts. Items are kept as JSON text, so
 * no object of one call's scope ever reaches another call. Bounded per app (lists, items, item
 * size) and in total (least recently used apps out first).
 */
@ApplicationScoped
public class AppStore {

    public static final int MAX_ITEMS = 100;
    public static final int MAX_LISTS = 16;
    /** Longest item, in characters of JSON. */
    public static final int MAX_ITEM_CHARS = 2048;
    static final Pattern LIST_NAME = Pattern.compile("[A-Za-z0-9_-]{1,40}");

    private Cache<String, Lists> apps;

    protected AppStore() {
    }

    /** @param memoryBytes bound on all apps' stored items together, in bytes */
    @Inject
    public AppStore(@ConfigProperty(name = "qaldy.runtime.store-memory-bytes", defaultValue = "67108864") long memoryBytes) {
        this.apps = Caffeine.newBuilder()
                .maximumWeight(memoryBytes)
                .weigher((String app, Lists lists) -> lists.weight())
                .executor(Runnable::run)
                .build();
    }

    /**
     * Appends one JSON item to a list, dropping the oldest past {@value #MAX_ITEMS}.
     *
     * @return the list's length afterwards
     * @throws IllegalArgumentException for a bad list name, an oversized item or one list too many;
     *                                  the message is meant for the app's developer
     */
    public int push(String app, String list, String json) {
        requireName(list);
        if (json.length() > MAX_ITEM_CHARS) {
            throw new IllegalArgumentException("store.push: an item may be at most " + MAX_ITEM_CHARS
                    + " characters of JSON");
        }
        Lists after = apps.asMap().compute(app, (key, before) -> (before == null ? Lists.EMPTY : before).with(list, json));
        return after.items.get(list).size();
    }

    /** The items of a list as JSON texts, oldest first; empty when there is no such list. */
    public List<String> list(String app, String list) {
        requireName(list);
        Lists lists = apps.getIfPresent(app);
        return lists == null ? List.of() : lists.items.getOrDefault(list, List.of());
    }

    private static void requireName(String list) {
        if (list == null || !LIST_NAME.matcher(list).matches()) {
            throw new IllegalArgumentException("store: a list name is 1 to 40 letters, digits, '-' or '_'");
        }
    }

    /** One app's lists; immutable, replaced on every push. */
    private static final class Lists {

        static final Lists EMPTY = new Lists(Map.of());

        final Map<String, List<String>> items;

        Lists(Map<String, List<String>> items) {
            this.items = items;
        }

        Lists with(String list, String json) {
            List<String> old = items.get(list);
            if (old == null && items.size() >= MAX_LISTS) {
                throw new IllegalArgumentException("store.push: an app may keep at most " + MAX_LISTS + " lists");
            }
            List<String> next = new ArrayList<>(old == null ? List.of() : old);
            next.add(json);
            if (next.size() > MAX_ITEMS) {
                next = next.subList(next.size() - MAX_ITEMS, next.size());
            }
            Map<String, List<String>> copy = new HashMap<>(items);
            copy.put(list, List.copyOf(next));
            return new Lists(Map.copyOf(copy));
        }

        int weight() {
            long bytes = 64;
            for (Map.Entry<String, List<String>> e : items.entrySet()) {
                bytes += 64 + 2L * e.getKey().length();
                for (String item : e.getValue()) {
                    bytes += 40 + 2L * item.length();
                }
            }
            return (int) Math.min(Integer.MAX_VALUE, bytes);
        }
    }
}
