package dev.qaldy.control.webhooks.entity;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.NamedQuery;
import jakarta.persistence.SequenceGenerator;
import jakarta.persistence.Table;
import jakarta.persistence.UniqueConstraint;
import java.time.Instant;
import java.util.Objects;

/**
 * One delivery a hook accepted: when, the SHA-256 of its raw body, the signature's timestamp
 * ({@code t}, unix seconds), the sender's idempotency key if it sent one (unique per hook: a
 * replay finds this row instead of queueing a second run), and the run it queued. The signature
 * is an HMAC of {@code t} and the body, so (hook, {@code t}, body hash) names one signed delivery:
 * the same signed delivery sent again, with any key or none, finds this row too.
 */
@Entity
@Table(name = "HOOK_DELIVERIES", uniqueConstraints = {
        @UniqueConstraint(name = "DELIVERIES_ID_UQ", columnNames = "DELIVERY_ID"),
        @UniqueConstraint(name = "DELIVERIES_HOOK_KEY_UQ", columnNames = {"HOOK_ID", "IDEMPOTENCY_KEY"})})
@NamedQuery(name = Delivery.BY_KEY, query = "SELECT d FROM Delivery d WHERE d.hookId = :hookId AND d.idempotencyKey = :key")
@NamedQuery(name = Delivery.BY_SIGNATURE, query = "SELECT d FROM Delivery d WHERE d.hookId = :hookId AND d.signedAt = :signedAt"
        + " AND d.bodySha256 = :bodySha256")
@NamedQuery(name = Delivery.OF_HOOK, query = "SELECT d FROM Delivery d WHERE d.hookId = :hookId ORDER BY d.receivedAt DESC, d.id DESC")
@NamedQuery(name = Delivery.DELETE_OF_HOOK, query = "DELETE FROM Delivery d WHERE d.hookId = :hookId")
@NamedQuery(name = Delivery.DELETE_OF_APP, query = "DELETE FROM Delivery d WHERE d.hookId IN"
        + " (SELECT h.id FROM Hook h WHERE h.app = :app)")
public class Delivery {

    public static final String BY_KEY = "Delivery.byKey";
    public static final String BY_SIGNATURE = "Delivery.bySignature";
    public static final String OF_HOOK = "Delivery.ofHook";
    public static final String DELETE_OF_HOOK = "Delivery.deleteOfHook";
    /** The idempotency key of a test delivery the control plane sent on the owner's behalf starts so (issue 20). */
    public static final String TEST_KEY_PREFIX = "qaldy-test-";
    public static final String DELETE_OF_APP = "Delivery.deleteOfApp";

    @Id
    @SequenceGenerator(name = "DELIVERIES_SEQ", sequenceName = "DELIVERIES_SEQ", allocationSize = 20)
    @GeneratedValue(strategy = GenerationType.SEQUENCE, generator = "DELIVERIES_SEQ")
    private Long id;

    /** The id the sender is told (a random UUID). */
    @Column(name = "DELIVERY_ID", nullable = false, length = 36)
    private String deliveryId;

    @Column(name = "HOOK_ID", nullable = false)
    private long hookId;

    @Column(name = "IDEMPOTENCY_KEY", length = 200)
    private String idempotencyKey;

    @Column(name = "BODY_SHA256", nullable = false, length = 64)
    private String bodySha256;

    @Column(name = "BODY_BYTES", nullable = false)
    private long bodyBytes;

    @Column(name = "RECEIVED_AT", nullable = false)
    private long receivedAt;

    /** The signature's {@code t}, unix seconds (null on rows recorded before it was kept). */
    @Column(name = "SIGNED_AT")
    private Long signedAt;

    @Column(name = "RUN_ID")
    private Long runId;

    protected Delivery() {
    }

    /**
     * @param signedAt the verified signature's {@code t}, unix seconds
     */
    public Delivery(String deliveryId, long hookId, String idempotencyKey, String bodySha256, long bodyBytes, long signedAt,
            Instant receivedAt) {
        this.deliveryId = Objects.requireNonNull(deliveryId, "deliveryId");
        this.hookId = hookId;
        this.idempotencyKey = idempotencyKey;
        this.bodySha256 = Objects.requireNonNull(bodySha256, "bodySha256");
        this.bodyBytes = bodyBytes;
        this.signedAt = signedAt;
        this.receivedAt = receivedAt.toEpochMilli();
    }

    public void queued(long runId) {
        this.runId = runId;
    }

    public String deliveryId() {
        return deliveryId;
    }

    public String bodySha256() {
        return bodySha256;
    }

    public Long runId() {
        return runId;
    }

    /** Bytes of the body as received. */
    public long bodyBytes() {
        return bodyBytes;
    }

    /** True for a test delivery the owner asked the control plane to send ({@link #TEST_KEY_PREFIX}). */
    public boolean isTest() {
        return idempotencyKey != null && idempotencyKey.startsWith(TEST_KEY_PREFIX);
    }

    public Instant receivedAt() {
        return Instant.ofEpochMilli(receivedAt);
    }
}
