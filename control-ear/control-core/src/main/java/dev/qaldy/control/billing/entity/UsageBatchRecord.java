package dev.qaldy.control.billing.entity;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Lob;
import jakarta.persistence.NamedQuery;
import jakarta.persistence.Table;
import java.time.Instant;
import java.util.Objects;

/**
 * A usage report the control plane billed, by its batch id (the primary key, so a batch is billed
 * once however often it is sent), with the answer it gave, which a retry gets again.
 */
@Entity
@Table(name = "BILLING_BATCHES")
@NamedQuery(name = UsageBatchRecord.DELETE_OLDER, query = "DELETE FROM UsageBatchRecord b WHERE b.receivedAt < :before")
public class UsageBatchRecord {

    public static final String DELETE_OLDER = "UsageBatchRecord.deleteOlder";

    @Id
    @Column(name = "BATCH_ID", length = 36)
    private String batchId;

    @Column(name = "REPORTER", nullable = false, length = 64)
    private String reporter;

    /** Epoch milliseconds. */
    @Column(name = "RECEIVED_AT", nullable = false)
    private long receivedAt;

    /** The JSON answer given for it. */
    @Lob
    @Column(name = "RECEIPT", nullable = false)
    private String receipt;

    protected UsageBatchRecord() {
    }

    public UsageBatchRecord(String batchId, String reporter, Instant receivedAt, String receipt) {
        this.batchId = Objects.requireNonNull(batchId, "batchId");
        this.reporter = Objects.requireNonNull(reporter, "reporter");
        this.receivedAt = receivedAt.toEpochMilli();
        this.receipt = Objects.requireNonNull(receipt, "receipt");
    }

    public String receipt() {
        return receipt;
    }
}
