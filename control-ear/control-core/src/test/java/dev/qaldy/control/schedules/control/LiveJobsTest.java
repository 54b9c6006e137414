package dev.qaldy.control.schedules.control;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.qaldy.control.builds.control.JobExports;
import dev.qaldy.control.platform.control.InvalidInput;
import org.junit.jupiter.api.Test;

/** The rule for a job named in a new schedule or hook, against the live version's jobs. */
class LiveJobsTest {

    @Test
    void a_job_the_live_version_registers_is_accepted_without_a_note() {
        assertThat(LiveJobs.decide("demo", 3, JobExports.fromStored("digest,report"), "digest")).isNull();
    }

    @Test
    void a_job_it_does_not_register_is_a_400_listing_the_jobs_it_does() {
        assertThatThrownBy(() -> LiveJobs.decide("demo", 3, JobExports.fromStored("digest,report"), "digset"))
                .isInstanceOf(InvalidInput.class)
                .hasMessage("the live version 3 of demo has no job handler named \"digset\"; its server.js registers these jobs:"
                        + " digest, report (app.job('name', function (ctx) { … }))");
        assertThatThrownBy(() -> LiveJobs.decide("demo", 1, JobExports.fromStored(""), "digest"))
                .isInstanceOf(InvalidInput.class).hasMessageContaining("registers no jobs");
    }

    @Test
    void jobs_not_known_are_accepted_with_a_note_saying_why() {
        assertThat(LiveJobs.decide("demo", 2, JobExports.fromStored(null), "digest"))
                .contains("not known").contains("the build did not record its jobs").contains("\"digest\" was not checked");
        assertThat(LiveJobs.decide("demo", 2, JobExports.read("['a'].forEach(function (n) { app.job(n, function () {}); });",
                "server.js"), "a")).contains("cannot read");
    }
}
