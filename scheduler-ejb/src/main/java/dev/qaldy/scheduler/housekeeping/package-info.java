/** Scheduler housekeeping: the minute timer that clears expired tickets and old sign-in records. */
package dev.qaldy.scheduler.housekeeping;
