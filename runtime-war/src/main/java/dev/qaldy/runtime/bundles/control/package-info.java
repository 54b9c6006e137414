/** Asking the control plane, verifying and unpacking bundles, and the bounded bundle memory. */
package dev.qaldy.runtime.bundles.control;
