/** The app-scoped credential with which an app's server code reaches its own data, and only its own. */
package dev.qaldy.contract.data;
