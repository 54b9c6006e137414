/** An app's shield settings: shown to and changed by its owner, fed to the gates by sequence. */
package dev.qaldy.control.shield.boundary;
