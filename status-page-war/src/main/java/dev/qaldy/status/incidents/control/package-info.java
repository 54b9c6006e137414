/** Opening and resolving incidents: automatically from the probes' states, and by a signed-in operator. */
package dev.qaldy.status.incidents.control;
