/** Health of the status page itself; probes of the cells it watches will live here. */
package dev.qaldy.status.probes;
