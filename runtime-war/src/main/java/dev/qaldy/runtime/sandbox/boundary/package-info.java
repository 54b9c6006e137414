/** Sandbox: the job endpoint the control plane's dispatcher calls to run an app's job handler. */
package dev.qaldy.runtime.sandbox.boundary;
