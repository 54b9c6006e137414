/** Value objects of bundles: the live answer and its cached record, a bundle's key, an unpacked bundle and its files, and where code came from. */
package dev.qaldy.runtime.bundles.entity;
