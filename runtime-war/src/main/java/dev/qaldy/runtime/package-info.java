/** The runtime host: serves each app's live version, its static files and its sandboxed handlers. */
package dev.qaldy.runtime;
