/** The sandbox: an app's {@code server.js} handlers run in Rhino with no Java, a CPU budget and bounded output. */
package dev.qaldy.runtime.sandbox;
