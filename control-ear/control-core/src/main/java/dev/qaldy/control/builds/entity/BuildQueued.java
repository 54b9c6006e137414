package dev.qaldy.control.builds.entity;

import java.nio.file.Path;

/**
 * Fired when a build was recorded; after the transaction commits, the builder picks it up.
 *
 * @param buildId the build's id
 * @param app     the app's name
 * @param version the build's version
 * @param upload  the spooled archive, owned by the builder from now on
 */
public record BuildQueued(long buildId, String app, long version, Path upload) {
}
