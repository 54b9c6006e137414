/** Tickets: one-time sign-in tickets to an app's origin, issued and redeemed. */
package dev.qaldy.control.tickets.boundary;
