/** Shield settings as the control plane stores them: an app's own limits and block lists, and the clock that orders their changes. */
package dev.qaldy.control.shield.entity;
