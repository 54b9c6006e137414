package dev.qaldy.runtime.sites.control;

import dev.qaldy.runtime.bundles.entity.Bundle;
import dev.qaldy.runtime.bundles.entity.BundleFile;
import java.util.Optional;

/**
 * What to answer for a static request: the file from {@code public/} ({@code /} and directories →
 * {@code index.html}), 304 when the browser's copy is current, a redirect that adds the slash a
 * directory needs, or not found. A pure function of bundle, path and {@code If-None-Match}.
 */
public final class StaticFiles {

    static final String ROOT = "public";
    static final String INDEX = "index.html";

    private StaticFiles() {
    }

    /** The answer to a static request. */
    public sealed interface Answer {

        /** The bundle path of the file this answer rests on (e.g. {@code public/index.html}), or null. */
        String bundlePath();
    }

    /** 200 with this file, found at {@code bundlePath}. */
    public record Found(BundleFile file, String contentType, String bundlePath) implements Answer {
    }

    /** 304: the browser holds this version of the file at {@code bundlePath} already. */
    public record NotModified(String etag, String bundlePath) implements Answer {
    }

    /** 301 to the same path with a trailing slash (relative links in the index then resolve). */
    public record AddSlash(String location, String bundlePath) implements Answer {
    }

    /** 404. */
    public record Missing() implements Answer {

        @Override
        public String bundlePath() {
            return null;
        }
    }

    /**
     * @param path        a decoded path that passed {@link RequestPaths#decode}
     * @param ifNoneMatch the request's {@code If-None-Match} header, or null
     */
    public static Answer resolve(Bundle bundle, String path, String ifNoneMatch) {
        String candidate = ROOT + path + (path.endsWith("/") ? INDEX : "");
        Optional<BundleFile> file = bundle.file(candidate);
        if (file.isEmpty()) {
            if (!path.endsWith("/") && bundle.file(candidate + "/" + INDEX).isPresent()) {
                return new AddSlash(RequestPaths.encode(path + "/"), candidate + "/" + INDEX);
            }
            return new Missing();
        }
        BundleFile found = file.get();
        if (matches(ifNoneMatch, found.etag())) {
            return new NotModified(found.etag(), candidate);
        }
        return new Found(found, ContentTypes.of(candidate), candidate);
    }

    /**
     * RFC 9110 {@code If-None-Match}: {@code *} or a list of entity tags, compared weakly
     * ({@code W/"x"} matches {@code "x"}).
     */
    static boolean matches(String ifNoneMatch, String etag) {
        if (ifNoneMatch == null || ifNoneMatch.isBlank()) {
            return false;
        }
        for (String tag : ifNoneMatch.split(",")) {
            String t = tag.strip();
            if (t.equals("*")) {
                return true;
            }
            if (t.startsWith("W/")) {
                t = t.substring(2);
            }
            if (t.equals(etag)) {
                return true;
            }
        }
        return false;
    }
}
