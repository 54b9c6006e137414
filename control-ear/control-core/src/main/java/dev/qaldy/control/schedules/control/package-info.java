/** Schedules: the catch-up planner, firing due ticks exactly once, the run queue, its admission and dispatch to the runtime host. */
package dev.qaldy.control.schedules.control;
