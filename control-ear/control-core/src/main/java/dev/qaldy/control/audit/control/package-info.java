/** Audit: appending every audited event in the transaction of its change. */
package dev.qaldy.control.audit.control;
