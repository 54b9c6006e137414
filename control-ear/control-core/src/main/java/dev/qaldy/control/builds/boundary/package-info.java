/** Builds: queue uploads, read results, promote versions and serve bundles, as a transactional façade. */
package dev.qaldy.control.builds.boundary;
