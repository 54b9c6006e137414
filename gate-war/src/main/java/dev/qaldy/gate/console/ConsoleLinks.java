package dev.qaldy.gate.console;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;

/** Links into the console's client-side routes (docs/cell-contract.md, "Sign-in to an app's origin"). */
public final class ConsoleLinks {

    private ConsoleLinks() {
    }

    /**
     * The console route that signs a person in and brings them back to {@code returnPath} on
     * {@code app}'s origin: {@code <public url>/console/#/open/<app>?return=<url-encoded path>}.
     */
    public static String open(String publicUrl, String app, String returnPath) {
        return home(publicUrl) + "#/open/" + app + "?return=" + encode(returnPath);
    }

    /** The console's start page. */
    public static String home(String publicUrl) {
        return publicUrl + "/console/";
    }

    /** Percent-encodes a query value; a space is {@code %20}, never {@code +}. */
    static String encode(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8).replace("+", "%20");
    }
}
