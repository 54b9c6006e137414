/** Derives each way of using the platform's status from its components, and the page's one-sentence headline. */
package dev.qaldy.status.groups.control;
