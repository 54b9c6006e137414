/** What the edge's processes need from the server they run on, found at run time (nothing compiled against a server). */
package dev.qaldy.contract.platform;
