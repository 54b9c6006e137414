package dev.qaldy.control.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.qaldy.control.it.Api.Reply;
import dev.qaldy.control.it.stuck.FailAllResource;
import java.net.URISyntaxException;
import java.net.URL;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Issue 14, finding 1, one suspected mechanism ruled out on a Payara Micro with a cell's pool settings:
 * a billing transaction that read, was then overtaken by the pool failing all its connections
 * (another thread's validation found one dead, as after a database restart) and locked the billing row
 * afterwards, must not leave the row locked. (What held it in the soak was a request waiting on
 * EclipseLink's shared-cache locks; the control plane has no shared cache since.)
 */
@ExtendWith(ArquillianExtension.class)
class FailAllMidwayIT {

    @ArquillianResource
    URL deployed;

    @Deployment(testable = false)
    static WebArchive deployment() {
        return TestCell.prepareAndDeploy().addClasses(FailAllResource.class, FailAllResource.Midway.class);
    }

    @Test
    void a_transaction_overtaken_by_the_pool_failing_all_its_connections_leaves_no_row_locked() throws URISyntaxException {
        Api api = new Api(deployed.toURI());
        String token = api.personWithCap("failall");

        Reply midway = api.post("api/v1/test-only/fail-all-midway", "{}", null);

        Reply cap = api.put("api/v1/billing/cap", "{\"capCents\":700}", token);
        assertThat(cap.status()).as("committed or failed, the request must not keep the row (it answered " + midway + "): " + cap)
                .isEqualTo(200);
    }
}
