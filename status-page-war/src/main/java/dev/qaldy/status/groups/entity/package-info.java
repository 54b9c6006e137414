/** The ways people use the platform (apps, sign-in, console, builds, webhooks, schedules) and how each is doing. */
package dev.qaldy.status.groups.entity;
