/** Sharing: one viewer of one app. */
package dev.qaldy.control.sharing.entity;
