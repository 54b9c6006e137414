package dev.qaldy.status.probes.entity;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Reads {@code qaldy.status.cells}: the cells the status page watches.
 *
 * <pre>
 *   cells     = cell *( ";" cell )
 *   cell      = name "=" entry *( "," entry )
 *   entry     = kind ":" url   |   url        (a bare url is one more of the previous kind)
 *   kind      = "gate" | "control" | "runtime"
 *   name      = lower-case letters, digits and "-", at most 32, unique
 *   url       = http or https base URL of one process, no query; a trailing "/" is dropped
 * </pre>
 *
 * Example: {@code local=gate:http://127.0.0.1:8080,http://127.0.0.1:8083,control:http://127.0.0.1:8081,runtime:http://127.0.0.1:8082}
 * is one cell with two gates. A cell lists at most one control plane; when it has one, it also
 * gets database, builder and scheduler rows. Blanks around separators are ignored.
 */
public final class CellsFormat {

    private CellsFormat() {
    }

    /**
     * The cells {@code text} lists, each with its components in display order.
     *
     * @throws IllegalArgumentException naming the first mistake, so a bad config fails at start
     */
    public static List<Cell> parse(String text) {
        if (text == null || text.isBlank()) {
            throw new IllegalArgumentException("qaldy.status.cells is empty; expected e.g. "
                    + "local=gate:http://127.0.0.1:8080,control:http://127.0.0.1:8081,runtime:http://127.0.0.1:8082");
        }
        List<Cell> cells = new ArrayList<>();
        Set<String> names = new HashSet<>();
        for (String spec : text.split(";")) {
            if (spec.isBlank()) {
                continue;
            }
            Cell cell = cell(spec.trim());
            if (!names.add(cell.name())) {
                throw new IllegalArgumentException("qaldy.status.cells lists the cell '" + cell.name() + "' twice");
            }
            cells.add(cell);
        }
        if (cells.isEmpty()) {
            throw new IllegalArgumentException("qaldy.status.cells lists no cell");
        }
        return List.copyOf(cells);
    }

    private static Cell cell(String spec) {
        int eq = spec.indexOf('=');
        if (eq < 0) {
            throw new IllegalArgumentException("qaldy.status.cells: '" + spec + "' has no '='; expected NAME=KIND:URL,…");
        }
        String name = spec.substring(0, eq).trim();
        if (!name.matches("[a-z0-9][a-z0-9-]{0,31}")) {
            throw new IllegalArgumentException("qaldy.status.cells: cell name '" + name
                    + "' must be 1 to 32 lower-case letters, digits or '-'");
        }
        Map<ComponentKind, List<URI>> urls = new EnumMap<>(ComponentKind.class);
        ComponentKind previous = null;
        for (String raw : spec.substring(eq + 1).split(",")) {
            String entry = raw.trim();
            if (entry.isEmpty()) {
                continue;
            }
            ComponentKind kind;
            String url;
            if (entry.regionMatches(true, 0, "http://", 0, 7) || entry.regionMatches(true, 0, "https://", 0, 8)) {
                if (previous == null) {
                    throw new IllegalArgumentException("qaldy.status.cells: in cell '" + name + "', '" + entry
                            + "' needs a kind first (gate:, control: or runtime:)");
                }
                kind = previous;
                url = entry;
            } else {
                int colon = entry.indexOf(':');
                Optional<ComponentKind> named = colon < 0 ? Optional.empty()
                        : ComponentKind.configurable(entry.substring(0, colon));
                if (named.isEmpty()) {
                    throw new IllegalArgumentException("qaldy.status.cells: in cell '" + name + "', '" + entry
                            + "' is not KIND:URL with KIND one of gate, control, runtime");
                }
                kind = named.get();
                url = entry.substring(colon + 1).trim();
            }
            urls.computeIfAbsent(kind, k -> new ArrayList<>()).add(baseUrl(name, url));
            previous = kind;
        }
        if (urls.isEmpty()) {
            throw new IllegalArgumentException("qaldy.status.cells: cell '" + name + "' lists no component");
        }
        if (urls.getOrDefault(ComponentKind.CONTROL, List.of()).size() > 1) {
            throw new IllegalArgumentException("qaldy.status.cells: cell '" + name + "' lists more than one control plane");
        }
        List<Component> components = new ArrayList<>();
        urls.forEach((kind, list) -> {
            for (int i = 0; i < list.size(); i++) {
                components.add(Component.of(name, kind, i + 1, list.get(i)));
            }
        });
        if (urls.containsKey(ComponentKind.CONTROL)) {
            for (ComponentKind kind : ComponentKind.values()) {
                if (!kind.probedDirectly()) {
                    components.add(Component.of(name, kind, 1, null));
                }
            }
        }
        components.sort(Comparator.comparing(Component::kind));
        return new Cell(name, components);
    }

    private static URI baseUrl(String cell, String text) {
        try {
            URI uri = new URI(text.endsWith("/") ? text.substring(0, text.length() - 1) : text);
            if (!("http".equalsIgnoreCase(uri.getScheme()) || "https".equalsIgnoreCase(uri.getScheme()))
                    || uri.getHost() == null || uri.getQuery() != null || uri.getFragment() != null
                    || uri.getUserInfo() != null) {
                throw new IllegalArgumentException("qaldy.status.cells: in cell '" + cell + "', '" + text
                        + "' is not an http(s) base URL like http://127.0.0.1:8081");
            }
            return uri;
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException("qaldy.status.cells: in cell '" + cell + "', '" + text
                    + "' is not a URL: " + e.getMessage(), e);
        }
    }
}
