/** Tickets: a stored ticket (its hash only). */
package dev.qaldy.control.tickets.entity;
