/** Platform: the JAX-RS application, the problem mapper, JSON body reading, session and service-token filters, health checks. */
package dev.qaldy.control.platform.boundary;
