/** Schedules: add, list and delete an app's schedules and read its runs, as a transactional façade. */
package dev.qaldy.control.schedules.boundary;
