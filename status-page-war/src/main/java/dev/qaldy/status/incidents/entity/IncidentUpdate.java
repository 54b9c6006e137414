package dev.qaldy.status.incidents.entity;

/**
 * One message posted on an incident.
 *
 * @param status    the incident's status with this message
 * @param body      the message
 * @param createdMs epoch ms when it was posted
 */
public record IncidentUpdate(IncidentStatus status, String body, long createdMs) {
}
