package dev.qaldy.status.platform;

import dev.qaldy.contract.http.StandardReasonPhrases;
import jakarta.enterprise.context.ApplicationScoped;

/** The status page's status lines with their standard reason phrases on either server ({@link StandardReasonPhrases}). */
@ApplicationScoped
public class ReasonPhrases extends StandardReasonPhrases {
}
