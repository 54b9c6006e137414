package dev.qaldy.control.builds.entity;

import java.util.Objects;

/**
 * The live build of an app with its signed live record ({@code dev.qaldy.contract.live.LiveStatements}:
 * app, version, SHA-256 and live-clock sequence), which the runtime host keeps in the data-centre cache.
 */
public record LiveBuild(Build build, String record) {

    public LiveBuild {
        Objects.requireNonNull(build, "build");
        Objects.requireNonNull(record, "record");
    }
}
