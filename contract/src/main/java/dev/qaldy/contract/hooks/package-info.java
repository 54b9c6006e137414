/** Webhooks as the cell's services share them: the signature rule (Stripe's scheme) the control plane and the gate both check. */
package dev.qaldy.contract.hooks;
