/** Webhooks: the hook (name, job, secret) and each delivery it recorded. */
package dev.qaldy.control.webhooks.entity;
