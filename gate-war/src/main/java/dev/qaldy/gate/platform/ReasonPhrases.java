package dev.qaldy.gate.platform;

import dev.qaldy.contract.http.StandardReasonPhrases;
import jakarta.enterprise.context.ApplicationScoped;

/** The gate's status lines with their standard reason phrases on either server ({@link StandardReasonPhrases}): {@code 429 Too Many Requests}. */
@ApplicationScoped
public class ReasonPhrases extends StandardReasonPhrases {
}
