/** Who is asking: the session token from the app origin's cookie or a Bearer header, verified locally with the cell's public key, and the one-time-ticket sign-in that sets the cookie. */
package dev.qaldy.gate.session;
