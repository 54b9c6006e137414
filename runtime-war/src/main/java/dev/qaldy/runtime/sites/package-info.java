/** Sites: the front door of the runtime host, and an app's static files from its bundle's {@code public/}. */
package dev.qaldy.runtime.sites;
