/** Who is asking: the session token from the app origin's cookie or a Bearer header, verified locally with the cell's public key, the one-time-ticket sign-in that sets the cookie, and the console's own session cookie on the public origin with its CSRF rule. */
package dev.qaldy.gate.session;
