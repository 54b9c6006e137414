/** State the edge keeps on its local disk across restarts: written atomically, set aside when it cannot be read. */
package dev.qaldy.contract.files;
