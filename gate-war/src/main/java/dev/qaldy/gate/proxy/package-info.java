/** The reverse proxy: streams allowed requests to the runtime host and /api requests to the control plane, hop-by-hop headers dropped both ways, X-Forwarded-* set. */
package dev.qaldy.gate.proxy;
