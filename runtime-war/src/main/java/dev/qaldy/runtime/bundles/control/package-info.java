/**
 * Asking the control plane, remembering its live answers for outages, verifying and unpacking
 * bundles, the bounded bundle memory and the shared data-centre cache of sealed copies.
 */
package dev.qaldy.runtime.bundles.control;
