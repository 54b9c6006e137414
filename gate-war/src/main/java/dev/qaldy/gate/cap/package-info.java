/** The spending cap at the gate: the last verified cap state per account and the requests counted since (in memory and on disk), kept in sync with the control plane, the hot-path step that puts an app to sleep at its cap with or without the API, and the service-only view and push of cap states. */
package dev.qaldy.gate.cap;
