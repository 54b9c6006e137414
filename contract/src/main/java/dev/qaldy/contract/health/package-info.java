/** One process's view of an upstream's health, shared by every check that calls it (issue 14). */
package dev.qaldy.contract.health;
