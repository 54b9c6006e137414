/** People: accounts, failed sign-ins, signed-out sessions and the email and password rules. */
package dev.qaldy.control.people.entity;
