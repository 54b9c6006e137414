/** Sharing: grant and revoke viewers of an app by email. */
package dev.qaldy.control.sharing.boundary;
