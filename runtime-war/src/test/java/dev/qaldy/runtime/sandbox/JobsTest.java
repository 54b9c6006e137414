package dev.qaldy.runtime.sandbox;

import static org.assertj.core.api.Assertions.assertThat;

import dev.qaldy.runtime.bundles.entity.Bundle;
import dev.qaldy.runtime.sandbox.control.AppStore;
import dev.qaldy.runtime.sandbox.control.Sandbox;
import dev.qaldy.runtime.sandbox.entity.HandlerRequest;
import dev.qaldy.runtime.sandbox.entity.JobOutcome;
import dev.qaldy.runtime.sandbox.entity.JobRequest;
import dev.qaldy.runtime.testing.FakeDataApi;
import dev.qaldy.runtime.testing.TestCredentials;
import java.util.Map;
import java.util.logging.Logger;
import org.junit.jupiter.api.Test;

/** Job handlers registered with {@code app.job(name, fn)}: run in the sandbox, console lines as the run's log. */
class JobsTest {

    final Sandbox sandbox = new Sandbox(200, 32L * 1024 * 1024, new AppStore(1 << 20), Logger.getLogger(JobsTest.class.getName()));

    static JobRequest run(String job, String payload) {
        return new JobRequest(7, "2026-11-30T12:00:00Z", "scheduler.catchup", job, payload);
    }

    @Test
    void a_job_runs_with_its_context_and_its_console_lines_become_the_log() {
        Bundle bundle = SandboxTest.app("app.job('digest', function (ctx) {"
                + " console.log('run', ctx.runId, ctx.actor, ctx.tick, ctx.job, ctx.app);"
                + " console.log({n: ctx.json ? ctx.json.n : null}); });");
        JobOutcome outcome = sandbox.runJob(bundle, run("digest", "{\"n\":3}"), TestCredentials.grant(bundle.key().app()));
        assertThat(outcome.succeeded()).isTrue();
        assertThat(outcome.log()).containsExactly("run 7 scheduler.catchup 2026-11-30T12:00:00Z digest demo", "{\"n\":3}");
    }

    @Test
    void an_unknown_job_a_throwing_job_and_a_runaway_job_fail_with_a_reason() {
        Bundle bundle = SandboxTest.app("app.job('boom', function () { console.log('before'); throw new Error('broken'); });"
                + "app.job('spin', function () { while (true) {} });");
        JobOutcome unknown = sandbox.runJob(bundle, run("nope", null), TestCredentials.grant(bundle.key().app()));
        assertThat(unknown.succeeded()).isFalse();
        assertThat(unknown.error()).as("the promoted version lacks the scheduled job: said plainly, no stack trace")
                .contains("the live version 1 of demo has no job handler named \"nope\": its server.js registers these jobs:"
                        + " boom, spin; promote a version with app.job('nope', function (ctx) { … }), or change the schedule or hook")
                .doesNotContain("Exception").doesNotContain("\tat ");
        JobOutcome boom = sandbox.runJob(bundle, run("boom", null), TestCredentials.grant(bundle.key().app()));
        assertThat(boom.succeeded()).isFalse();
        assertThat(boom.log()).containsExactly("before");
        assertThat(boom.error()).contains("broken");
        JobOutcome spin = sandbox.runJob(bundle, run("spin", null), TestCredentials.grant(bundle.key().app()));
        assertThat(spin.succeeded()).isFalse();
        assertThat(spin.error()).contains("CPU time");
    }

    @Test
    void the_log_is_bounded() {
        Bundle bundle = SandboxTest.app("app.job('chatty', function () { for (var i = 0; i < 500; i++) console.log('line ' + i); });");
        JobOutcome outcome = sandbox.runJob(bundle, run("chatty", null), TestCredentials.grant(bundle.key().app()));
        assertThat(outcome.succeeded()).isTrue();
        assertThat(outcome.log()).hasSize(JobOutcome.MAX_LOG_LINES + 1).endsWith("(more console lines not kept)");
    }

    @Test
    void jobs_are_no_request_handlers_and_bad_registrations_fail_the_script() {
        Bundle bundle = SandboxTest.app("app.job('digest', function () {});");
        assertThat(sandbox.handle(bundle, new HandlerRequest("POST", "/api/digest", Map.of(), Map.of(), "", null), TestCredentials.grant(bundle.key().app())))
                .isInstanceOf(dev.qaldy.runtime.sandbox.entity.HandlerOutcome.NoHandler.class);
        JobOutcome bad = sandbox.runJob(SandboxTest.app("app.job('bad name', function () {});"), run("x", null), null);
        assertThat(bad.error()).contains("app.job(name, handler)");
    }

    @Test
    void the_guestbook_digest_counts_its_entries() {
        try (FakeDataApi api = new FakeDataApi()) {
            digest(api.sandbox(1000, 1000));
        }
    }

    static void digest(Sandbox sandbox) {
        Bundle guestbook = GuestbookTest.unpack();
        sandbox.handle(guestbook, new HandlerRequest("POST", "/api/sign", Map.of(), Map.of("content-type", "application/json"),
                "{\"name\":\"Ada\",\"message\":\"hi\"}", "ada@example.com"), TestCredentials.grant(guestbook.key().app()));
        JobOutcome outcome = sandbox.runJob(guestbook, run("digest", "{\"note\":\"from a webhook\"}"), TestCredentials.grant(guestbook.key().app()));
        assertThat(outcome.succeeded()).as(String.valueOf(outcome.error())).isTrue();
        assertThat(outcome.log()).containsExactly("digest: 1 entries (scheduler.catchup, tick 2026-11-30T12:00:00Z)",
                "webhook note: from a webhook");
    }
}
