/** May this person open this app: the control plane's answer through one fault-tolerant client, and the policy that turns answers and failures into allow, deny or 503, never widening access. */
package dev.qaldy.gate.access;
