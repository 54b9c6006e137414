/** Apps: create, list, show and delete, as a transactional façade. */
package dev.qaldy.control.apps.boundary;
