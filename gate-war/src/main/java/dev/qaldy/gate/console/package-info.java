/** The console's place on the public origin: its static files under /console/, the redirect to them, and links into it. */
package dev.qaldy.gate.console;
