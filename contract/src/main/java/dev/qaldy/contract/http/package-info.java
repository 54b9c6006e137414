/** HTTP helpers the edge's callers of the control plane share: answer bodies bounded in size. */
package dev.qaldy.contract.http;
