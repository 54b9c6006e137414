package dev.qaldy.control.builds.control;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** What the builder reads of a server.js's jobs, without running it. */
class JobExportsTest {

    @Test
    void literal_registrations_are_the_jobs_and_other_app_calls_and_ctx_app_do_not_matter() {
        JobExports exports = JobExports.read("""
                app.get('/api/hello', function (req) { return {json: {app: req.path}}; });
                app.job('report', function (ctx) { console.log(ctx.app, ctx.job); });
                app.job("digest", function (ctx) { var o = {app: 1}; });
                app.job('not a valid name', function () {});
                var job = 'x'; // a variable named like the method is not a registration
                """, "server.js");
        assertThat(exports.complete()).isTrue();
        assertThat(exports.names()).containsExactly("digest", "report");
        assertThat(exports.describe()).isEqualTo("digest, report");
        assertThat(JobExports.fromStored(exports.stored())).isEqualTo(exports);
    }

    @Test
    void the_sample_guestbook_registers_digest() throws IOException {
        Path guestbook = Path.of("../../examples/guestbook/server.js");
        JobExports exports = JobExports.read(Files.readString(guestbook), "server.js");
        assertThat(exports.complete()).as(exports.note()).isTrue();
        assertThat(exports.names()).contains("digest");
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "['a', 'b'].forEach(function (n) { app.job(n, function () {}); });",
        "var a = app; a.job('hidden', function () {});",
        "function register(target) { target.job('x', function () {}); } register(app);",
        "app['job']('x', function () {});",
        "var register = app.job; register('x', function () {});"})
    void registrations_a_reader_cannot_follow_make_the_list_not_known(String source) {
        JobExports exports = JobExports.read("app.job('known', function () {});\n" + source, "server.js");
        assertThat(exports.complete()).isFalse();
        assertThat(exports.stored()).isNull();
        assertThat(exports.note()).contains("server.js");
    }

    @Test
    void a_script_that_does_not_parse_is_not_known_and_none_is_known_and_empty() {
        JobExports broken = JobExports.read("app.job('x', function () {", "server.js");
        assertThat(broken.complete()).isFalse();
        assertThat(broken.note()).contains("does not parse");
        assertThat(JobExports.none().stored()).isEmpty();
        assertThat(JobExports.fromStored("").names()).isEmpty();
        assertThat(JobExports.fromStored("").complete()).isTrue();
        assertThat(JobExports.fromStored(null).complete()).isFalse();
    }
}
