/** Scheduler ticks: the non-persistent EJB timer that fires due schedules and dispatches the run queue. */
package dev.qaldy.scheduler.ticks;
