/** Webhooks at the edge (issue 17): what the gate learns to check a delivery itself, the durable queue it keeps while the API cannot be asked, and the hand-over once it answers. */
package dev.qaldy.gate.hooks;
