/** Hands out the sequence every change of shield settings takes, in commit order. */
package dev.qaldy.control.shield.control;
