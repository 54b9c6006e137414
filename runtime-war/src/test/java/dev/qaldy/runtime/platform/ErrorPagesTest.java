package dev.qaldy.runtime.platform;

import static org.assertj.core.api.Assertions.assertThat;

import dev.qaldy.runtime.bundles.control.BundleRefusedException;
import dev.qaldy.runtime.bundles.control.ControlPlaneUnavailableException;
import dev.qaldy.runtime.bundles.control.NotPublishedException;
import dev.qaldy.runtime.bundles.control.UnexpectedAnswerException;
import org.junit.jupiter.api.Test;

/** The host's pages as a visitor of an app reads them (issue 20): sentences with a next step, no inner parts named. */
class ErrorPagesTest {

    @Test
    void aPageWithALinkHomeEscapesIt() {
        String html = ErrorPages.page("Page not found", "There is no page at this address.", "/\"x", "Go to the app's home page");
        assertThat(html).contains("<a href=\"/&quot;x\">Go to the app&#39;s home page</a>");
        assertThat(ErrorPages.page("Title", "Sentence.")).doesNotContain("<a ");
    }

    @Test
    void noPageAVisitorMeetsNamesTheCellsInnerParts() {
        for (ServingException problem : new ServingException[] {new ControlPlaneUnavailableException("log only"),
            new NotPublishedException("log only"), new UnexpectedAnswerException("log only"),
            new BundleRefusedException("log only"), new CellCredentials.NotReadyException()}) {
            String html = ErrorPages.page(problem.title(), problem.detail());
            assertThat(html).as(problem.type()).doesNotContainIgnoringCase("control plane")
                    .doesNotContainIgnoringCase("runtime host").doesNotContain("log only");
            assertThat(problem.detail()).endsWith(".");
            assertThat(Character.isUpperCase(problem.detail().charAt(0))).isTrue();
        }
    }
}
