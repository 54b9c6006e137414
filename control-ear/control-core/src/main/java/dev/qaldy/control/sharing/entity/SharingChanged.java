package dev.qaldy.control.sharing.entity;

/**
 * Who may open {@code app} changed (a share, a revoke, the app deleted); {@code sharingVersion} is
 * the app's version after the change. Every gate of the cell must drop its copies of the app's
 * access answers before the API answers the change (seed: "a change to sharing clears the copy").
 */
public record SharingChanged(String app, long sharingVersion) {
}
