package dev.qaldy.soak.check;

import static dev.qaldy.soak.check.Histories.ANN;
import static dev.qaldy.soak.check.Histories.OWNER;
import static org.assertj.core.api.Assertions.assertThat;

import dev.qaldy.soak.history.Facts;
import dev.qaldy.soak.history.FaultKind;
import dev.qaldy.soak.history.History;
import dev.qaldy.soak.history.Kind;
import dev.qaldy.soak.history.Recovery;
import dev.qaldy.soak.history.Run;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Each invariant on small histories that must pass and must fail: a table of (case, invariant,
 * history, how many violations). Times are seconds from 0; the bounds are the seed's.
 */
class InvariantsTest {

    static final Bounds SEED = Bounds.defaults();

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void judges(String name, Invariant invariant, History history, int violations) {
        Verdict verdict = invariant.check(history, SEED);
        assertThat(verdict.violations()).as(name + ": " + verdict.violations()).hasSize(violations);
        assertThat(verdict.checks()).as("each violation is one of its checks").isGreaterThanOrEqualTo(violations);
    }

    static Stream<Arguments> cases() {
        return Stream.of(
                // No access the API denied
                c("shared, then served", new NoAccessTheApiDenied(), Histories.withApp().share(1, ANN, 201).open(2, "gate", 200), 0),
                c("never shared, served", new NoAccessTheApiDenied(), Histories.withApp().open(2, "gate", 200), 1),
                c("already shared (the API's 409) counts as shared", new NoAccessTheApiDenied(),
                        Histories.withApp().op(1, 1.1, "owner", Kind.SHARE, "gate", "a", 409, "Conflict", Map.of(),
                                Map.of(Facts.SUBJECT, ANN, Facts.PROBLEM, "yes")).open(2, "gate", 200), 0),
                c("a server's bare 409 says nothing", new NoAccessTheApiDenied(),
                        Histories.withApp().share(1, ANN, 409).open(2, "gate", 200), 1),
                c("a server's bare 404 to a revoke: the revoke did not happen", new NoAccessTheApiDenied(),
                        Histories.withApp().share(1, ANN, 201).revoke(10, ANN, 404).open(11, "gate", 200), 0),
                c("revoked (answered), then served", new NoAccessTheApiDenied(),
                        Histories.withApp().share(1, ANN, 201).revoke(10, ANN, 204).open(11, "gate", 200), 1),
                c("revoke without an answer: may not have happened", new NoAccessTheApiDenied(),
                        Histories.withApp().share(1, ANN, 201).revoke(10, ANN, 0).open(11, "gate", 200), 0),
                c("served while the revoke was in flight", new NoAccessTheApiDenied(),
                        Histories.withApp().share(1, ANN, 201).revoke(10, ANN, 204).open(10.05, 10.2, ANN, "s-ann", "a", "gate", 200), 0),
                c("a refused share changes nothing", new NoAccessTheApiDenied(),
                        Histories.withApp().share(1, ANN, 429).open(2, "gate", 200), 1),
                c("signed out everywhere, then served", new NoAccessTheApiDenied(),
                        Histories.withApp().share(1, ANN, 201).signOut(10, "everywhere", 200).open(11, "gate2", 200), 1),
                c("signed out on this gate only: another gate may serve", new NoAccessTheApiDenied(),
                        Histories.withApp().with("gate2").share(1, ANN, 201).signOut(10, "this-gate", 200).open(11, "gate2", 200), 0),
                c("signed out on this gate only: this gate may not", new NoAccessTheApiDenied(),
                        Histories.withApp().share(1, ANN, 201).signOut(10, "this-gate", 200).open(11, "gate", 200), 1),
                c("signed out on this gate only: forgotten when it restarts", new NoAccessTheApiDenied(),
                        Histories.withApp().share(1, ANN, 201).signOut(10, "this-gate", 200).fault("gate", FaultKind.KILL, 12, 20)
                                .open(40, "gate", 200), 0),
                c("a session made for another app", new NoAccessTheApiDenied(),
                        Histories.withApp().share(1, ANN, 201).open(2, 2.1, ANN, "s-ann-b", "b", "gate", 200), 1),
                c("a share without an answer during an outage may land after it", new NoAccessTheApiDenied(),
                        Histories.withApp().fault("control", FaultKind.PAUSE, 5, 20).share(6, ANN, 0).open(25, "gate", 200), 0),
                c("…but not after a revoke answered once it settled", new NoAccessTheApiDenied(),
                        Histories.withApp().fault("control", FaultKind.PAUSE, 5, 20).share(6, ANN, 0).revoke(45, ANN, 204)
                                .open(46, "gate", 200), 1),
                c("the app deleted, then served to its owner", new NoAccessTheApiDenied(),
                        Histories.withApp().op(10, 10.1, "owner", Kind.DELETE_APP, "gate", "a", 204, "", Map.of(), Map.of())
                                .open(11, 11.1, OWNER, "s-owner", "a", "gate", 200), 1),
                c("a public site, served to anyone", new NoAccessTheApiDenied(), site().op(2, 2.1, "visitor", Kind.OPEN, "gate", "a", 200, "",
                        Map.of(), Map.of(Facts.PERSON, Facts.ANONYMOUS, Facts.PATH, "/")), 0),
                c("a site made private again, then served to anyone", new NoAccessTheApiDenied(), site()
                        .op(10, 10.1, "owner", Kind.KIND, "gate", "a", 200, "", Map.of(), Map.of(Facts.APP_KIND, "app"))
                        .op(11, 11.1, "visitor", Kind.OPEN, "gate", "a", 200, "", Map.of(), Map.of(Facts.PERSON, Facts.ANONYMOUS)), 1),

                // No 403 while the API fails
                c("a 403 to a person the gate never saw, the API down", new NoForbiddenWhileFailing(),
                        Histories.withApp().share(1, ANN, 201).fault("control", FaultKind.KILL, 10, 30).open(15, "gate", 403), 1),
                c("a 503 to them", new NoForbiddenWhileFailing(),
                        Histories.withApp().share(1, ANN, 201).fault("control", FaultKind.KILL, 10, 30).open(15, "gate", 503), 0),
                c("a 403 the gate remembers", new NoForbiddenWhileFailing(),
                        Histories.withApp().open(5, "gate", 403).fault("control", FaultKind.KILL, 10, 30).open(15, "gate", 403), 0),
                c("a 403 another gate remembers", new NoForbiddenWhileFailing(), Histories.withApp().with("gate2").open(5, "gate", 403)
                        .fault("control", FaultKind.KILL, 10, 30).open(15, "gate2", 403), 1),
                c("a remembered 403 cleared by a share", new NoForbiddenWhileFailing(), Histories.withApp().open(5, "gate", 403)
                        .share(8, ANN, 201).fault("control", FaultKind.KILL, 10, 30).open(15, "gate", 403), 1),
                c("a 403 sent before the API certainly failed", new NoForbiddenWhileFailing(), Histories.withApp()
                        .fault("control", FaultKind.KILL, 10, 30).open(9.95, 10.2, ANN, "s-ann", "a", "gate", 403)
                        .open(15, "gate", 503), 0),

                // What people already opened keeps working
                c("served from the copy", new OpenedKeepsWorking(), opened().open(20, "gate", 200), 0),
                c("refused although the gate let them in", new OpenedKeepsWorking(), opened().open(20, "gate", 503), 1),
                c("no answer at all", new OpenedKeepsWorking(), opened().open(20, 50, ANN, "s-ann", "a", "gate", 0), 1),
                c("a revoke sent meanwhile (unknown) explains a refusal", new OpenedKeepsWorking(),
                        opened().revoke(15, ANN, 503).open(20, "gate", 503), 0),
                c("the gate restarted meanwhile", new OpenedKeepsWorking(),
                        opened().fault("gate", FaultKind.RESTART, 12, 14).open(40, "gate", 503), 0),
                c("the control plane cut off from the edge: served from the copy", new OpenedKeepsWorking(),
                        cutOff().open(20, "gate", 200), 0),
                c("the control plane cut off from the edge: refused", new OpenedKeepsWorking(), cutOff().open(20, "gate", 503), 1),
                c("the gate cut off alone meanwhile (it trusts no copy)", new OpenedKeepsWorking(), opened().withPartitions()
                        .fault("gate", FaultKind.CUT, 12, 30).open(20, "gate", 503), 0),
                c("the runtime host away", new OpenedKeepsWorking(), opened().fault("runtime", FaultKind.KILL, 18, 25)
                        .open(20, "gate", 502), 0),
                c("another gate never served them", new OpenedKeepsWorking(), opened().with("gate2").open(20, "gate2", 503), 0),
                c("the copy past the access memory", new OpenedKeepsWorking(), Histories.withApp().share(1, ANN, 201).open(5, "gate", 200)
                        .fault("control", FaultKind.KILL, 10, 3000).open(2000, "gate", 503), 0),

                // A hung API costs people on the copy no wait
                c("a quick page from the copy while the API hangs", new HangCostsNoWait(), hung().open(20, 20.05, ANN, "s-ann", "a", "gate", 200), 0),
                c("a slow page from the copy while the API hangs", new HangCostsNoWait(), hung().open(20, 21.5, ANN, "s-ann", "a", "gate", 200), 1),
                c("the wall clock jumped 8.2 s while a quick page from the copy was in flight", new HangCostsNoWait(),
                        hung().open(20, 28.3, ANN, "s-ann", "a", "gate", 200).took(0.05), 0),
                c("a slow page by the monotonic clock, whatever the wall clock said", new HangCostsNoWait(),
                        hung().open(20, 20.5, ANN, "s-ann", "a", "gate", 200).took(1.5), 1),
                c("a slow page in the first seconds of the hang", new HangCostsNoWait(),
                        hung().open(11, 12.5, ANN, "s-ann", "a", "gate", 200).open(20, "gate", 200), 0),
                c("a slow page from the copy while the API is cut off (no answer: a hang too)", new HangCostsNoWait(),
                        cutOff().open(20, 21.5, ANN, "s-ann", "a", "gate", 200), 1),

                // Over the cap is never served
                c("served once the gate could have learned the account is asleep", new CapHolds(), asleep().open(60, 60.1, OWNER, "s-o", "a",
                        "gate", 200), 1),
                c("asleep then", new CapHolds(), asleep().open(60, 60.1, OWNER, "s-o", "a", "gate", 503), 0),
                c("served before the gate could have learned it", new CapHolds(), asleep().open(20, 20.1, OWNER, "s-o", "a", "gate", 200)
                        .open(60, 60.1, OWNER, "s-o", "a", "gate", 503), 0),
                c("the gate said asleep, restarted, served", new CapHolds(), asleep()
                        .op(12, 12.1, "owner", Kind.OPEN, "gate", "a", 503, "This app is asleep: …", Map.of(), Map.of())
                        .fault("gate", FaultKind.RESTART, 15, 20).open(25, 25.1, OWNER, "s-o", "a", "gate", 200), 1),
                c("served after the cap was raised", new CapHolds(), asleep().op(30, 30.1, "owner", Kind.CAP, "gate", "", 200, "", Map.of(),
                        Map.of(Facts.ACCOUNT, OWNER, Facts.ASLEEP, "false")).open(40, 40.1, OWNER, "s-o", "a", "gate", 200), 0),
                c("the gate away until later: it learns later", new CapHolds(), asleep().fault("gate", FaultKind.KILL, 20, 50)
                        .open(55, 55.1, OWNER, "s-o", "a", "gate", 200).open(120, 120.1, OWNER, "s-o", "a", "gate", 200), 1),
                c("served during an outage, long after it learned", new CapHolds(), asleep().fault("control", FaultKind.KILL, 60, 120)
                        .open(90, 90.1, OWNER, "s-o", "a", "gate", 200), 1),

                // A deleted version never comes back
                c("a page of a deleted app's version", new DeletedStaysDeleted(), deleted().open(11, 11.1, OWNER, "s-o", "a", "gate", 200), 1),
                c("a page of the app made again", new DeletedStaysDeleted(), deleted()
                        .op(11, 11.1, "owner", Kind.OPEN, "gate", "a", 200, "", Map.of(), Map.of(Facts.MARKER, "m2")), 0),
                c("a page served before the deletion was answered", new DeletedStaysDeleted(), deleted().open(9.95, 10.1, OWNER, "s-o", "a",
                        "gate", 200).open(11, 11.1, OWNER, "s-o", "a", "gate", 404), 0),

                // Every accepted webhook runs exactly once
                c("accepted, run once", new WebhooksRunOnce(), hook("k1", 202).run(hookRun(1, "k1", "succeeded")), 0),
                c("accepted, run twice", new WebhooksRunOnce(), hook("k1", 202).run(hookRun(1, "k1", "succeeded"))
                        .run(hookRun(2, "k1", "succeeded")), 1),
                c("accepted, never run", new WebhooksRunOnce(), hook("k1", 202), 1),
                c("accepted, its run never reached the runtime host", new WebhooksRunOnce(), hook("k1", 202).run(new Run("h", 1, null, "w1",
                        "webhook", "failed", -1, 5000, List.of("the runtime host could not be reached or did not answer: "
                                + "java.net.ConnectException"))), 1),
                c("never accepted (503), run once anyway", new WebhooksRunOnce(), hook("k1", 202).op(3, 3.1, "sender", Kind.WEBHOOK, "gate",
                        "h", 503, "", Map.of(), Map.of(Facts.KEY, "k2", Facts.HOOK, "w1"))
                        .run(hookRun(1, "k1", "succeeded")).run(hookRun(2, "k2", "succeeded")), 0),

                // Each schedule catches up at most once per outage
                c("one catch-up after an outage", new SchedulesCatchUpOnce(), scheduled().run(tick(1, "scheduler.catchup", 30, 65)), 0),
                c("two catch-ups after one outage", new SchedulesCatchUpOnce(), scheduled().run(tick(1, "scheduler.catchup", 30, 65))
                        .run(tick(2, "scheduler.catchup", 45, 70)), 1),
                c("a tick due after the first catch-up was made, run late and labelled a catch-up", new SchedulesCatchUpOnce(),
                        scheduled().run(tick(1, "scheduler.catchup", 55, 61)).run(tick(2, "scheduler.catchup", 62, 66.5)), 0),
                c("a second catch-up of a tick the first one's making could have seen", new SchedulesCatchUpOnce(),
                        scheduled().run(tick(1, "scheduler.catchup", 55, 61)).run(tick(2, "scheduler.catchup", 60, 66.5)), 1),
                c("a late tick after the outage, labelled a catch-up by a scheduler running late", new SchedulesCatchUpOnce(),
                        scheduled().run(tick(1, "scheduler.catchup", 55, 65)).run(tick(2, "scheduler.catchup", 95, 130)), 0),
                c("an ordinary run of a tick while away", new SchedulesCatchUpOnce(), scheduled().run(tick(1, "scheduler", 20, 21)), 1),
                c("an ordinary run of the outage's last tick", new SchedulesCatchUpOnce(), scheduled().run(tick(1, "scheduler", 58, 61)), 0),
                c("a control plane cut off from the edge keeps firing: an ordinary run of a tick inside the cut",
                        new SchedulesCatchUpOnce(), Histories.withApp().withPartitions().fault("control", FaultKind.CUT, 10, 60)
                                .run(tick(1, "scheduler", 20, 20.1)), 0),
                c("a tick run twice", new SchedulesCatchUpOnce(), scheduled().run(tick(1, "scheduler", 80, 80))
                        .run(tick(2, "scheduler", 80, 81)), 1),
                c("a catch-up of a tick older than the window", new SchedulesCatchUpOnce(), scheduled()
                        .run(tick(1, "scheduler.catchup", 30, 30 + 7 * 3600)), 1),
                c("with a second control plane, one away is no outage", new SchedulesCatchUpOnce(), Histories.withApp().with("control2")
                        .fault("control", FaultKind.KILL, 10, 60).run(tick(1, "scheduler", 30, 30)), 0),

                // The shield holds, across restarts
                c("a blocked bot refused", new ShieldHolds(), bot(403), 0),
                c("a blocked bot served", new ShieldHolds(), bot(200), 1),
                c("served after the daily limit, the gate restarted", new ShieldHolds(), limited().fault("gate", FaultKind.RESTART, 12, 14)
                        .open(20, "gate", 200), 1),
                c("limited still", new ShieldHolds(), limited().open(20, "gate", 429), 0),
                c("let past the shield after a restart during an outage (503 from the access step)", new ShieldHolds(), limited()
                        .fault("gate", FaultKind.RESTART, 12, 14).open(20, "gate", 503), 1),
                c("the server's own page while the gate starts says nothing of the shield", new ShieldHolds(), limited()
                        .fault("gate", FaultKind.RESTART, 12, 14).op(15, 15.1, "ann", Kind.OPEN, "gate", "a", 404,
                                "HTTP Status 404 - Not Found — type Status report", Map.of(), Map.of()).open(20, "gate", 429), 0),
                c("another gate counts its own", new ShieldHolds(), limited().with("gate2").open(20, "gate2", 200), 0),
                c("the owner changed the shield", new ShieldHolds(), limited().op(15, 15.1, "owner", Kind.SHIELD, "gate", "a", 200, "",
                        Map.of(), Map.of(Facts.PER_APP_PER_DAY, "1000")).open(20, "gate", 200), 0),
                c("a new day", new ShieldHolds(), limited().open(86_401, "gate", 200), 0),

                // An app that exists is never missing
                c("404 for an app that exists", new ExistingAppsFound(), Histories.withApp().open(5, "gate", 404), 1),
                c("a 200 that is not its page", new ExistingAppsFound(), Histories.withApp().op(5, 5.1, "ann", Kind.OPEN, "gate", "a", 200,
                        "Payara Micro", Map.of(), Map.of()), 1),
                c("404 before its first version is live", new ExistingAppsFound(), Histories.of().op(0, 0.1, "owner", Kind.CREATE_APP,
                        "gate", "a", 201, "", Map.of(), Map.of(Facts.PERSON, OWNER)).open(5, "gate", 404).open(6, "gate", 200), 0),
                c("404 once it was deleted", new ExistingAppsFound(), Histories.withApp().open(5, "gate", 200)
                        .op(10, 10.1, "owner", Kind.DELETE_APP, "gate", "a", 204, "", Map.of(), Map.of()).open(11, "gate", 404), 0),

                // No 500 with the API and database up
                c("a 500 with everything up", new NoServerErrors(), Histories.withApp().open(5, "gate", 500), 1),
                c("a 500 while the database is down", new NoServerErrors(), Histories.withApp().fault("db", FaultKind.STOP, 10, 20)
                        .open(15, "gate", 500), 0),
                c("a 500 while the API settles", new NoServerErrors(), Histories.withApp().fault("control", FaultKind.KILL, 10, 20)
                        .open(25, "gate", 500), 0),
                c("a 500 after it settled", new NoServerErrors(), Histories.withApp().fault("control", FaultKind.KILL, 10, 20)
                        .open(35, "gate", 500), 1),

                // Everything works again within 60 s
                c("every path within 60 s", new Recovers(), recovered(20, 20, 20, 50, 59), 0),
                c("a path after 70 s", new Recovers(), recovered(20, 70, 20, 50, 59), 1),
                c("a path never", new Recovers(), recovered(20, -1, 20, 50, -1), 2));
    }

    private static Arguments c(String name, Invariant invariant, Histories history, int violations) {
        return Arguments.of(name, invariant, history.build(), violations);
    }

    private static Histories site() {
        return Histories.of().op(0, 0.1, "owner", Kind.CREATE_APP, "gate", "a", 201, "", Map.of(),
                Map.of(Facts.PERSON, OWNER, Facts.APP_KIND, "site"));
    }

    /** ANN shared, served at 5 s via gate; the control plane killed from 10 s to 60 s. */
    private static Histories opened() {
        return Histories.withApp().share(1, ANN, 201).open(5, "gate", 200).fault("control", FaultKind.KILL, 10, 60);
    }

    /** ANN shared, served at 5 s via gate; the control plane cut off from the edge from 10 s to 60 s. */
    private static Histories cutOff() {
        return Histories.withApp().withPartitions().share(1, ANN, 201).open(5, "gate", 200).fault("control", FaultKind.CUT, 10, 60);
    }

    private static Histories hung() {
        return Histories.withApp().share(1, ANN, 201).open(5, "gate", 200).fault("control", FaultKind.PAUSE, 10, 40);
    }

    /** The API said OWNER's account is asleep at 10 s. */
    private static Histories asleep() {
        return Histories.withApp().op(10, 10.1, "owner", Kind.BILLING, "gate", "", 200, "", Map.of(),
                Map.of(Facts.ACCOUNT, OWNER, Facts.ASLEEP, "true"));
    }

    /** A build with marker m1 at 1 s; the app deleted at 10 s. */
    private static Histories deleted() {
        return Histories.withApp().op(1, 1.1, "owner", Kind.BUILD, "gate", "a", 202, "", Map.of(), Map.of(Facts.MARKER, "m1", Facts.VERSION, "1"))
                .op(10, 10.1, "owner", Kind.DELETE_APP, "gate", "a", 204, "", Map.of(), Map.of());
    }

    private static Histories hook(String key, int status) {
        return Histories.withApp().op(2, 2.1, "sender", Kind.WEBHOOK, "gate", "h", status, "", Map.of(),
                Map.of(Facts.KEY, key, Facts.HOOK, "w1", Facts.DELIVERY, "d-" + key));
    }

    private static Run hookRun(long id, String key, String state) {
        return new Run("h", id, null, "w1", "webhook", state, -1, 3000, List.of("soak-key " + key));
    }

    /** The control plane (the only one) certainly away from 10 s to 60 s. */
    private static Histories scheduled() {
        return Histories.withApp().fault("control", FaultKind.KILL, 10, 60);
    }

    private static Run tick(long id, String actor, double tick, double created) {
        return new Run("a", id, 7L, null, actor, "succeeded", Histories.ms(tick), Histories.ms(created), List.of());
    }

    private static Histories bot(int status) {
        return Histories.withApp().op(2, 2.1, "bot", Kind.OPEN, "gate", "a", status, status == 403 ? "Blocked by Qaldy's shield" : "",
                Map.of(), Map.of(Facts.BOT, "sqlmap", Facts.PERSON, Facts.ANONYMOUS));
    }

    /** The gate said at 10 s that "a" reached its daily limit. */
    private static Histories limited() {
        return Histories.withApp().share(1, ANN, 201).open(5, "gate", 200).op(10, 10.1, "ann", Kind.OPEN, "gate", "a", 429,
                "This app reached its daily limit: …", Map.of("x-qaldy-shield", "daily-limit"),
                Map.of(Facts.PERSON, ANN, Facts.SESSION, "s-ann", Facts.SESSION_APP, "a"));
    }

    private static Histories recovered(double... secondsAfter) {
        java.util.Map<String, Long> ok = new java.util.LinkedHashMap<>();
        for (int i = 0; i < Recovery.PATHS.size(); i++) {
            ok.put(Recovery.PATHS.get(i), secondsAfter[i] < 0 ? -1 : Histories.ms(100 + secondsAfter[i]));
        }
        return Histories.withApp().recovery(new Recovery(1, Histories.ms(100), ok, Histories.ms(100 + 90)));
    }

}
