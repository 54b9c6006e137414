/** Access: the decision the gate receives. */
package dev.qaldy.control.access.entity;
