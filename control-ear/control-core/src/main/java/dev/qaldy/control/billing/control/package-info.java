/** Billing: the price list and limits from config, the cap state sequence clock, signing cap states. */
package dev.qaldy.control.billing.control;
