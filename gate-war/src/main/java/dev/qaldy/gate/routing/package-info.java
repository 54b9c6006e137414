/** Where a request goes, from its Host header and path, and the hot path that takes it there: route, session, access, forward. */
package dev.qaldy.gate.routing;
