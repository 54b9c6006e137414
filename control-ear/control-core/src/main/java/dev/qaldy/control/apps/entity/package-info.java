/** Apps: the app entity, the app name rule and the app as a person sees it. */
package dev.qaldy.control.apps.entity;
