/**
 * Public sites: whether anyone may open an app without signing in, asked of the control plane
 * through one fault-tolerant client, remembered per app in bounded memory (fresh for the access
 * freshness window, standing in for a failing control plane for at most the access memory,
 * cleared by the sharing push), and never assumed: an app the gate could not learn about is not public.
 */
package dev.qaldy.gate.sites;
