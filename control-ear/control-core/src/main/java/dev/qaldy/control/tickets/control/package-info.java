/** Tickets: ticket values, their hashes and the return path rule. */
package dev.qaldy.control.tickets.control;
