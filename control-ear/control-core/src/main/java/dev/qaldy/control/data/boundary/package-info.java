/** Data: per-app JSON collections (create, read, list, update, delete) for people who may open the app, as a transactional façade. */
package dev.qaldy.control.data.boundary;
