/** What every gate component stands on: config, the cell's secrets, clock and logger producers, the control plane's REST clients and the gate's own pages. */
package dev.qaldy.gate.platform;
