/** Builds: spooling uploads, checking and normalizing archives, sealing and recording bundles. */
package dev.qaldy.control.builds.control;
