package dev.qaldy.control.platform.boundary;

import dev.qaldy.contract.http.StandardReasonPhrases;
import jakarta.enterprise.context.ApplicationScoped;

/** The API's status lines with their standard reason phrases on either server ({@link StandardReasonPhrases}): {@code 429 Too Many Requests}. */
@ApplicationScoped
public class ReasonPhrases extends StandardReasonPhrases {
}
