/** Probing the cells from outside: readiness requests on a schedule, what their answers mean, the states and history kept. */
package dev.qaldy.status.probes.control;
