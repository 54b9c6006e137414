/** The status page's HTTP face: the public JSON (summary, uptime, incidents) and the operator's sign-in and incident changes. */
package dev.qaldy.status.boundary;
