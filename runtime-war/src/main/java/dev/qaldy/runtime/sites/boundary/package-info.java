/** The one servlet every request from the gate goes through. */
package dev.qaldy.runtime.sites.boundary;
