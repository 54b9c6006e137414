/**
 * An app's data at the edge: the grant with which an app's server code reaches its own data, and only
 * its own, for a bounded time; the data feed's changes and the bookmarks that keep a reader from an
 * older world than it saw (issue 18).
 */
package dev.qaldy.contract.data;
