/** Access: may person P open app A, for the gate. */
package dev.qaldy.control.access.boundary;
