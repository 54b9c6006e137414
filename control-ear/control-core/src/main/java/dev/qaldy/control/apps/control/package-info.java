/** Apps: who may see or change an app (owner, viewer, nobody). */
package dev.qaldy.control.apps.control;
