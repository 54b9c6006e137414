/** Audit: the audited event and the log entry it becomes. */
package dev.qaldy.control.audit.entity;
