/** Telling every gate of the cell that an app's sharing changed. */
package dev.qaldy.control.sharing.control;
