/** Pure rules of static serving: safe request paths, content types, ETags and the file to answer with. */
package dev.qaldy.runtime.sites.control;
