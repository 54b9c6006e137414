/** Schedules: the schedule, its cron rule in a time zone, and the runs of the run queue. */
package dev.qaldy.control.schedules.entity;
