/** What goes into a handler call and what comes out of it. */
package dev.qaldy.runtime.sandbox.entity;
