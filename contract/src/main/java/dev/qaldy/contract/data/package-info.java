/** The grant with which an app's server code reaches its own data, and only its own, for a bounded time. */
package dev.qaldy.contract.data;
