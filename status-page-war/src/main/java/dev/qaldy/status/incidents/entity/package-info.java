/** Incidents and their updates, as people read them on the page. */
package dev.qaldy.status.incidents.entity;
