package dev.qaldy.control.sharing.entity;

/**
 * Who may open {@code app} changed (a share, a revoke, a change of kind, the app deleted);
 * {@code sharingVersion} is the app's version after the change and {@code sequence} the change's
 * place in the cell-wide sharing-changes feed. Every gate of the cell must drop its copies of the
 * app's access answers, or be out of touch and trust no copy, before the API answers the change
 * (seed: "a change to sharing clears the copy").
 */
public record SharingChanged(String app, long sharingVersion, long sequence) {
}
