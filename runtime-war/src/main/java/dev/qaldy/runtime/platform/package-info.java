/** What every component of the runtime host shares: credentials, clock, logging, errors, health. */
package dev.qaldy.runtime.platform;
