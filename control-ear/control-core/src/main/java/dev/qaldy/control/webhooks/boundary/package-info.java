/** Webhooks: create, list and delete an app's hooks, and receive deliveries, as a transactional façade. */
package dev.qaldy.control.webhooks.boundary;
