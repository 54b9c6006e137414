/** The operator's sign-in, with the status page's own credentials (never the cell's): password, sessions, CSRF checks. */
package dev.qaldy.status.operators.control;
