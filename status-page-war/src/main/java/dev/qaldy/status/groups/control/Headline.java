package dev.qaldy.status.groups.control;

import dev.qaldy.status.groups.entity.GroupStatus;
import dev.qaldy.status.groups.entity.UseGroup;
import dev.qaldy.status.probes.entity.ComponentStatus;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The page's headline: one sentence, in the words of people who use the platform, saying what
 * still works and what does not, derived from the groups' statuses, e.g. "Apps people already
 * opened keep working; sign-in, changes, builds, webhooks and schedules wait." Apps that are down
 * come first; never a word from inside the cell.
 */
public final class Headline {

    /** A thing people do, as the sentence names it, and whether the name takes a plural verb. */
    private record Noun(String words, boolean plural) {
    }

    private Headline() {
    }

    /** The sentence for {@code groups} (in display order). */
    public static String sentence(List<GroupStatus> groups) {
        if (groups.isEmpty()) {
            return "The status page watches nothing yet.";
        }
        Map<ComponentStatus, List<UseGroup>> by = new EnumMap<>(ComponentStatus.class);
        groups.forEach(g -> by.computeIfAbsent(bucket(g.status()), s -> new ArrayList<>()).add(g.group()));
        List<UseGroup> working = by.getOrDefault(ComponentStatus.OPERATIONAL, List.of());
        List<UseGroup> broken = by.getOrDefault(ComponentStatus.MAJOR_OUTAGE, List.of());
        List<UseGroup> starting = by.getOrDefault(ComponentStatus.STARTING, List.of());
        List<UseGroup> unknown = by.getOrDefault(ComponentStatus.UNKNOWN, List.of());
        int all = groups.size();
        if (working.size() == all) {
            return "Everything is working.";
        }
        if (groups.stream().allMatch(g -> g.status() == ComponentStatus.MAJOR_OUTAGE)) {
            return capital(list(nouns(broken, false, false)).words()) + " are all down.";
        }
        if (starting.size() == all) {
            return "Everything is starting up.";
        }
        if (unknown.size() == all) {
            return "The status page has no recent data, so it cannot tell what works right now.";
        }
        boolean signInWorks = working.contains(UseGroup.SIGN_IN);
        List<String> clauses = new ArrayList<>();
        List<GroupStatus> appsDown = groups.stream().filter(g -> g.group() == UseGroup.APPS && g.status().outage()).toList();
        if (!appsDown.isEmpty()) {
            clauses.add(appsDown.get(0).status() == ComponentStatus.MAJOR_OUTAGE ? "apps are down" : "some apps are down");
        }
        List<UseGroup> waiting = broken.stream().filter(g -> g != UseGroup.APPS).toList();
        int others = all - working.size();
        boolean everythingElse = !working.isEmpty() && working.size() > others;
        if (!working.isEmpty() && !everythingElse) {
            clauses.add(clause(nouns(working, signInWorks, true), "keeps working", "keep working"));
        }
        if (!waiting.isEmpty()) {
            clauses.add(clause(nouns(waiting, false, false), "waits", "wait"));
        }
        List<UseGroup> slow = by.getOrDefault(ComponentStatus.DEGRADED_PERFORMANCE, List.of());
        if (!slow.isEmpty()) {
            clauses.add(clause(nouns(slow, signInWorks, true), "is slow", "are slow"));
        }
        if (!starting.isEmpty()) {
            clauses.add(clause(nouns(starting, false, false), "is starting", "are starting"));
        }
        if (!unknown.isEmpty()) {
            clauses.add(clause(nouns(unknown, false, false), "cannot be checked right now", "cannot be checked right now"));
        }
        if (everythingElse) {
            clauses.add("everything else keeps working");
        }
        return capital(String.join("; ", clauses)) + ".";
    }

    /** Outages (partial or not) read as "down or waiting"; the rest as they are. */
    private static ComponentStatus bucket(ComponentStatus status) {
        return status == ComponentStatus.PARTIAL_OUTAGE ? ComponentStatus.MAJOR_OUTAGE : status;
    }

    private static List<Noun> nouns(List<UseGroup> groups, boolean signInWorks, boolean working) {
        return groups.stream().map(g -> noun(g, signInWorks, working)).toList();
    }

    /**
     * How the sentence names a group: "apps people already opened" unless new visitors get in too;
     * the console by what waits ("changes") unless it works.
     */
    private static Noun noun(UseGroup group, boolean signInWorks, boolean working) {
        return switch (group) {
            case APPS -> new Noun(working && !signInWorks ? "apps people already opened" : "apps", true);
            case SIGN_IN -> new Noun("sign-in", false);
            case CONSOLE -> working ? new Noun("the console", false) : new Noun("changes", true);
            case BUILDS -> new Noun("builds", true);
            case WEBHOOKS -> new Noun("webhooks", true);
            case SCHEDULES -> new Noun("schedules", true);
        };
    }

    private static String clause(List<Noun> nouns, String singular, String plural) {
        Noun subject = list(nouns);
        return subject.words() + " " + (subject.plural() ? plural : singular);
    }

    /** "a", "a and b", "a, b and c". */
    private static Noun list(List<Noun> nouns) {
        if (nouns.size() == 1) {
            return nouns.get(0);
        }
        List<String> words = nouns.stream().map(Noun::words).toList();
        return new Noun(String.join(", ", words.subList(0, words.size() - 1)) + " and " + words.get(words.size() - 1), true);
    }

    private static String capital(String text) {
        return text.isEmpty() ? text : text.substring(0, 1).toUpperCase(Locale.ROOT) + text.substring(1);
    }
}
