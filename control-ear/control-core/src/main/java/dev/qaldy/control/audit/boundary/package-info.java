/** Audit: reading the log a person may see. */
package dev.qaldy.control.audit.boundary;
