/** The spending cap as the cell's services share it: the signed cap state and its prices, and the edge's rules for keeping it (verify, never older, never "no cap"), counting usage since it, persisting both, and reporting usage in batches. */
package dev.qaldy.contract.cap;
