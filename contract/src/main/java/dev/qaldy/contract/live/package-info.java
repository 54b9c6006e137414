/** What is live for an app, as the control plane signs it for the runtime hosts' data-centre cache. */
package dev.qaldy.contract.live;
