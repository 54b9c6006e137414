/**
 * Rules of static serving: safe request paths, content types, ETags, byte ranges, the file to answer
 * with, and which files this data centre has served (what may be answered while the control plane is down).
 */
package dev.qaldy.runtime.sites.control;
