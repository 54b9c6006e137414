/** Webhooks: the HMAC-SHA256 signature check, the idempotency rules and the secrets. */
package dev.qaldy.control.webhooks.control;
