/** Platform: the business exception tree, clock and logger producers, the cell's keys, the service token and public URLs. */
package dev.qaldy.control.platform.control;
