/**
 * An app's data at the edge (issue 18): a replica of every app's records, fed from the control
 * plane's data feed, that answers {@code qaldy.data}'s reads while the control plane cannot be asked.
 */
package dev.qaldy.runtime.data;
