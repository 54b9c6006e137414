/** Webhooks: the idempotency rules and the refusal of a bad signature (the signature rule itself is {@code dev.qaldy.contract.hooks.HookSignature}). */
package dev.qaldy.control.webhooks.control;
