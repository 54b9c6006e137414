/**
 * Bundles: which version of an app is live, fetching its bundle, checking its seal, keeping it in
 * memory and as a sealed copy in the data-centre cache for when the control plane cannot be asked.
 */
package dev.qaldy.runtime.bundles;
