package dev.qaldy.gate.platform;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ErrorPageServletTest {

    @ParameterizedTest
    @ValueSource(ints = {400, 404, 405, 414, 418, 431})
    void aClientErrorTheServerRaisedKeepsItsStatusAndGetsTheGatesPage(int status) {
        Page page = ErrorPageServlet.clientError(status);
        assertThat(page.status()).isEqualTo(status);
        assertThat(page.sentence()).endsWith(".");
        assertThat(Pages.html(page)).doesNotContainIgnoringCase("gate couldn");
    }

    @Test
    void headersTooLargeSayWhatToDo() {
        assertThat(ErrorPageServlet.clientError(431).sentence()).contains("Clear this site's cookies");
    }
}
