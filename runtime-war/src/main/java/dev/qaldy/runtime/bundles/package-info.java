/** Bundles: which version of an app is live, fetching its bundle, checking its seal, keeping it in memory. */
package dev.qaldy.runtime.bundles;
