package dev.qaldy.gate.hooks;

import dev.qaldy.contract.hooks.HookMaterial;
import dev.qaldy.contract.files.KeptFile;
import dev.qaldy.gate.platform.LearnedFile;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.ConcurrentHashMap;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * What this gate knows of every hook, in memory and in {@code hooks.json} (issue 17): a change is
 * taken only when newer than the one held for that hook (a late push never brings a deleted hook
 * back), and written to disk before the caller goes on. Deleted hooks stay as tombstones, without
 * secrets. Readers never wait for a writer.
 */
public final class HookBook {

    private final Path file;
    private final int maxHooks;
    private final Logger log;
    private final Map<String, HookMaterial> hooks = new ConcurrentHashMap<>();
    private long next;

    /** @param maxHooks most hooks (tombstones included) kept; a new one past it is not learned */
    public HookBook(Path file, int maxHooks, Logger log) {
        this.file = file;
        this.maxHooks = maxHooks;
        this.log = log;
    }

    /** At start: what the file holds. A damaged file is set aside and the feed read again from its start. */
    public synchronized void restore() {
        LearnedFile.Read<HookMaterial> read = LearnedFile.read(file, "hooks", HookMaterial::read);
        if (read instanceof LearnedFile.Held<HookMaterial> held) {
            held.entries().forEach(h -> hooks.put(h.key(), h));
            next = held.next();
            log.log(Level.INFO, "gate: hooks: {0} hooks read from {1} (up to change {2})", new Object[] {hooks.size(), file, next});
        } else if (read instanceof LearnedFile.Corrupt<HookMaterial> corrupt) {
            log.log(Level.WARNING, "gate: hooks: cannot read {0} ({1}); {2}; read again from the control plane''s feed",
                    new Object[] {file, corrupt.why(), KeptFile.setAsideSaying(file)});
        } else {
            log.log(Level.INFO, "gate: hooks: none kept in {0} yet", file);
        }
    }

    /** The hook's material while it exists as far as this gate knows. */
    public Optional<HookMaterial> find(String app, String hook) {
        HookMaterial held = hooks.get(HookMaterial.key(app, hook));
        return held == null || held.deleted() ? Optional.empty() : Optional.of(held);
    }

    /**
     * The person who owns {@code app}, as the material of its hooks says (issue 17: only the owner sees the
     * deliveries waiting at the edge); empty when this gate knows no hook of the app with an owner.
     */
    public OptionalLong ownerOf(String app) {
        return hooks.values().stream().filter(h -> !h.deleted() && h.app().equals(app) && h.owner() > 0)
                .mapToLong(HookMaterial::owner).findFirst();
    }

    /** The feed's position: every change up to it was read. */
    public synchronized long next() {
        return next;
    }

    /**
     * Takes pushed or fetched changes and, when the feed's position moves or a change was taken,
     * writes the file before returning.
     *
     * @param feedNext the feed's new position, or -1 for a push (which says nothing of other changes)
     * @return how many changes were newer than what was held
     * @throws IOException when the file cannot be written (the changes stay in memory)
     */
    public synchronized int learn(List<HookMaterial> changes, long feedNext) throws IOException {
        int taken = 0;
        for (HookMaterial change : changes) {
            HookMaterial held = hooks.get(change.key());
            if (held != null && held.sequence() >= change.sequence()) {
                continue;
            }
            if (held == null && hooks.size() >= maxHooks) {
                log.log(Level.WARNING, "gate: hooks: {0} hooks kept, the most (qaldy.gate.hooks.max-entries); {1} is not learned",
                        new Object[] {maxHooks, change.key()});
                continue;
            }
            hooks.put(change.key(), change);
            taken++;
        }
        boolean moved = feedNext > next;
        if (moved) {
            next = feedNext;
        }
        if (taken > 0 || moved) {
            LearnedFile.write(file, next, "hooks", hooks.values().stream().map(HookMaterial::toJson).toList(), null);
        }
        return taken;
    }

    /** Hooks known to exist. */
    public long size() {
        return hooks.values().stream().filter(h -> !h.deleted()).count();
    }
}
