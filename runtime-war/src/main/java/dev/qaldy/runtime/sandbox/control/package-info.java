/** The Rhino context with its budgets, compiled scripts, the JavaScript bridge and the per-app store. */
package dev.qaldy.runtime.sandbox.control;
