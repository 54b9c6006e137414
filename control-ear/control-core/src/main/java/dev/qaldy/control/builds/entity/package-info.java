/** Builds: build records, their status and the stored bundle bytes. */
package dev.qaldy.control.builds.entity;
