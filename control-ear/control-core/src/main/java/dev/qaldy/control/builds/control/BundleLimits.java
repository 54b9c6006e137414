package dev.qaldy.control.builds.control;

/**
 * What the builder accepts in one archive.
 *
 * @param maxEntries           most entries, directories included
 * @param maxUncompressedBytes most bytes of all files once inflated
 */
public record BundleLimits(int maxEntries, long maxUncompressedBytes) {

    /** The limits of docs/cell-contract.md: 2,000 entries, 50 MiB uncompressed. */
    public static final BundleLimits CONTRACT = new BundleLimits(2000, 50L * 1024 * 1024);
}
