/** What the status page runs on: its settings, its own database, time, logging, HTTP plumbing and its own health. */
package dev.qaldy.status.platform;
