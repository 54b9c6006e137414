/** The spending cap at the runtime host: server code of an account over its cap does not run, decided from the last verified cap state plus the CPU time counted here, with or without the API. */
package dev.qaldy.runtime.cap;
