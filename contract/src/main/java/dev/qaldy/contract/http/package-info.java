/** HTTP rules the gate and the runtime host share: problem JSON (written and recognised), JSON answers, bodies read within a bound. */
package dev.qaldy.contract.http;
