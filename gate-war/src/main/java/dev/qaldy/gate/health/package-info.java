/** MicroProfile Health for the launcher and the status page: ready once the cell's public key and service token are loaded. */
package dev.qaldy.gate.health;
