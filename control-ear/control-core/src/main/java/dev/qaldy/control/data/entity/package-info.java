/** Data: one JSON record of an app's collection, and the bounds of names and records. */
package dev.qaldy.control.data.entity;
