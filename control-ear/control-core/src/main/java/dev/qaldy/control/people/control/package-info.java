/** People: password hashing, the sign-in slow-down and session token signing. */
package dev.qaldy.control.people.control;
