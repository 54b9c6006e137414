package dev.qaldy.runtime.bundles.entity;

/**
 * Where the code that answered a request came from, sent to the gate as {@code X-Qaldy-Code}.
 * {@code api}: the control plane answered (asked for this request, or within the freshness window
 * of its last answer). {@code memory}: it could not be asked, and the host used the live version it
 * remembered from the control plane's last answer. {@code dc-copy}: it could not be asked, and the
 * live version or the bundle came from the sealed copy in the data-centre cache.
 */
public enum CodeSource {

    API("api"),
    MEMORY("memory"),
    DC_COPY("dc-copy");

    private final String header;

    CodeSource(String header) {
        this.header = header;
    }

    public String header() {
        return header;
    }

    /** True when the control plane could not be asked: what was never served before waits for it. */
    public boolean outage() {
        return this != API;
    }
}
