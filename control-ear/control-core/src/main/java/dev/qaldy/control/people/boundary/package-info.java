/** People: sign-up and signing in and out, as transactional façades. */
package dev.qaldy.control.people.boundary;
