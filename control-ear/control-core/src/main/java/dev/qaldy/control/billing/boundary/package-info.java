/** Billing: the owner's cap and spending, usage batches billed once, signed cap states for the edge, and the control plane's own "may this app run". */
package dev.qaldy.control.billing.boundary;
