package dev.qaldy.contract.keys;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * One component's {@link ServiceCredential}s, one per {@link ServiceDirection} it sends or accepts
 * (issue 16: least privilege inside the cell). Files missing at start are read by {@link #reload()};
 * a credential once read is kept. Thread-safe.
 */
public final class ServiceKeyring {

    public enum Verdict {
        ACCEPTED,
        /** Missing, wrong, or ours not loaded: 401. */
        UNKNOWN,
        /** This cell's credential made for another direction: 403, and the caller is logged. */
        WRONG_DIRECTION
    }

    private final Path dir;
    private final Set<ServiceDirection> held;
    private final Map<ServiceDirection, ServiceCredential> loaded = new EnumMap<>(ServiceDirection.class);
    private volatile Map<ServiceDirection, ServiceCredential> snapshot = Map.of();

    /** @param held the directions this component sends or accepts (at least one) */
    public ServiceKeyring(Path dir, Set<ServiceDirection> held) {
        this.dir = Objects.requireNonNull(dir, "dir");
        if (held.isEmpty()) {
            throw new IllegalArgumentException("a keyring holds at least one direction");
        }
        this.held = EnumSet.copyOf(held);
    }

    /** Reads every held credential not yet loaded; returns one message per credential still missing. */
    public synchronized List<String> reload() {
        List<String> problems = new ArrayList<>();
        for (ServiceDirection direction : held) {
            if (!loaded.containsKey(direction)) {
                try {
                    loaded.put(direction, ServiceCredential.read(file(direction)));
                } catch (IllegalStateException e) {
                    problems.add(e.getMessage());
                }
            }
        }
        snapshot = Map.copyOf(loaded);
        return problems;
    }

    public boolean complete() {
        return snapshot.size() == held.size();
    }

    /** Files of the held credentials not loaded yet, space separated. */
    public String missing() {
        StringBuilder missing = new StringBuilder();
        for (ServiceDirection direction : held) {
            if (!snapshot.containsKey(direction)) {
                missing.append(missing.isEmpty() ? "" : " ").append(file(direction));
            }
        }
        return missing.toString();
    }

    public Path file(ServiceDirection direction) {
        return dir.resolve(direction.fileName());
    }

    /**
     * @throws IllegalArgumentException when this component does not hold {@code direction} (a bug)
     * @throws IllegalStateException    while its file cannot be read (callers fail closed)
     */
    public ServiceCredential credential(ServiceDirection direction) {
        if (!held.contains(direction)) {
            throw new IllegalArgumentException("this component holds no " + direction.fileName() + " credential");
        }
        ServiceCredential credential = snapshot.get(direction);
        if (credential == null) {
            throw new IllegalStateException("the " + direction.fileName() + " credential is not loaded from " + file(direction));
        }
        return credential;
    }

    public String secret(ServiceDirection direction) {
        return credential(direction).secret();
    }

    /** Constant time per credential held; a credential not loaded matches nothing. */
    public Verdict check(String presented, Set<ServiceDirection> accepted) {
        return identify(presented).map(d -> accepted.contains(d) ? Verdict.ACCEPTED : Verdict.WRONG_DIRECTION)
                .orElse(Verdict.UNKNOWN);
    }

    public Optional<ServiceDirection> identify(String presented) {
        if (presented == null) {
            return Optional.empty();
        }
        ServiceDirection found = null;
        for (Map.Entry<ServiceDirection, ServiceCredential> entry : snapshot.entrySet()) {
            if (entry.getValue().matches(presented) && found == null) { // no early exit: every credential is compared
                found = entry.getKey();
            }
        }
        return Optional.ofNullable(found);
    }
}
