/** Value objects of bundles: the live answer, a bundle's key, an unpacked bundle and its files. */
package dev.qaldy.runtime.bundles.entity;
