/** The shield, first step after routing: rate limits per client and per app, bot rules, deny lists and daily limits, all in the gate's memory, so they hold with the control plane stopped. */
package dev.qaldy.gate.shield;
