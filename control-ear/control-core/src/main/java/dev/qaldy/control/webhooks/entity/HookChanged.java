package dev.qaldy.control.webhooks.entity;

import dev.qaldy.contract.hooks.HookMaterial;

/**
 * A hook was made or deleted (CDI event, fired in the changing transaction): what the gates must
 * learn before the API answers ({@code HookPush}).
 *
 * @param material what a gate checks a delivery with; no secret when the hook was deleted
 */
public record HookChanged(HookMaterial material) {
}
