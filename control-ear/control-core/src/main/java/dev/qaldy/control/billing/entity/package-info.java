/** Billing: accounts with their cap and spending per period, usage per app, billed batches, the sequence clock of cap states. */
package dev.qaldy.control.billing.entity;
