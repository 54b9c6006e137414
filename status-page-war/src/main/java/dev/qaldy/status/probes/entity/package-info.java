/** What the status page watches and what it saw: cells, components, probe results and current states. */
package dev.qaldy.status.probes.entity;
