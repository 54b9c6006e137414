package dev.qaldy.control.data.entity;

import dev.qaldy.control.apps.entity.App;
import jakarta.persistence.Basic;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.FetchType;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.Index;
import jakarta.persistence.JoinColumn;
import jakarta.persistence.Lob;
import jakarta.persistence.ManyToOne;
import jakarta.persistence.NamedQuery;
import jakarta.persistence.SequenceGenerator;
import jakarta.persistence.Table;
import java.time.Instant;
import java.util.Objects;

/** One JSON object in a collection of an app's data; its text was checked by {@link RecordBounds#record}. */
@Entity
@Table(name = "DATA_RECORDS", indexes = {@Index(name = "DATA_APP_COLLECTION_IX", columnList = "APP_ID,COLLECTION_NAME,ID"),
    @Index(name = "DATA_CHANGE_SEQ_IX", columnList = "CHANGE_SEQ")})
@NamedQuery(name = DataRecord.PAGE, query = "SELECT r FROM DataRecord r WHERE r.app = :app AND r.collection = :collection"
        + " AND r.id > :after ORDER BY r.id")
@NamedQuery(name = DataRecord.PAGE_NEWEST, query = "SELECT r FROM DataRecord r WHERE r.app = :app AND r.collection = :collection"
        + " AND r.id < :after ORDER BY r.id DESC")
@NamedQuery(name = DataRecord.COUNT_OF_APP, query = "SELECT COUNT(r) FROM DataRecord r WHERE r.app = :app")
@NamedQuery(name = DataRecord.DELETE_OF_APP, query = "DELETE FROM DataRecord r WHERE r.app = :app")
@NamedQuery(name = DataRecord.CHANGED_SINCE, query = "SELECT r FROM DataRecord r WHERE r.changeSeq > :since ORDER BY r.changeSeq")
@NamedQuery(name = DataRecord.CHANGED_SINCE_OF_APP, query = "SELECT r FROM DataRecord r WHERE r.app.name = :app AND r.changeSeq > :since"
        + " ORDER BY r.changeSeq")
public class DataRecord {

    public static final String PAGE = "DataRecord.page";
    /** A page newest first: ids below {@code :after}. */
    public static final String PAGE_NEWEST = "DataRecord.pageNewest";
    public static final String COUNT_OF_APP = "DataRecord.countOfApp";
    public static final String DELETE_OF_APP = "DataRecord.deleteOfApp";
    /** Records whose last change is after {@code :since}, in change order (issue 18's feed). */
    public static final String CHANGED_SINCE = "DataRecord.changedSince";
    public static final String CHANGED_SINCE_OF_APP = "DataRecord.changedSinceOfApp";

    @Id
    @SequenceGenerator(name = "DATA_SEQ", sequenceName = "DATA_SEQ", allocationSize = 50)
    @GeneratedValue(strategy = GenerationType.SEQUENCE, generator = "DATA_SEQ")
    private Long id;

    @ManyToOne(optional = false)
    @JoinColumn(name = "APP_ID", nullable = false)
    private App app;

    @Column(name = "COLLECTION_NAME", nullable = false, length = 40)
    private String collection;

    @Lob
    @Basic(fetch = FetchType.EAGER)
    @Column(name = "BODY", nullable = false)
    private String body;

    @Column(name = "CREATED_BY", nullable = false, length = 254)
    private String createdBy;

    @Column(name = "CREATED_AT", nullable = false)
    private long createdAt;

    @Column(name = "UPDATED_AT", nullable = false)
    private long updatedAt;

    /** The sequence of this record's last change ({@link DataClock}). */
    @Column(name = "CHANGE_SEQ", nullable = false)
    private long changeSeq;

    protected DataRecord() {
    }

    /**
     * @param body      JSON text that passed {@link RecordBounds#record}
     * @param changeSeq this change's sequence from {@link DataClock}
     */
    public DataRecord(App app, String collection, String body, String createdBy, Instant at, long changeSeq) {
        this.app = Objects.requireNonNull(app, "app");
        this.collection = RecordBounds.collection(collection);
        this.body = Objects.requireNonNull(body, "body");
        this.createdBy = createdBy;
        this.createdAt = at.toEpochMilli();
        this.updatedAt = createdAt;
        this.changeSeq = changeSeq;
    }

    /** Replaces the whole object, as change {@code changeSeq} ({@link DataClock}). */
    public void replace(String body, Instant at, long changeSeq) {
        this.body = Objects.requireNonNull(body, "body");
        this.updatedAt = at.toEpochMilli();
        this.changeSeq = changeSeq;
    }

    public long changeSeq() {
        return changeSeq;
    }

    public Long id() {
        return id;
    }

    public App app() {
        return app;
    }

    public String collection() {
        return collection;
    }

    public String body() {
        return body;
    }

    public String createdBy() {
        return createdBy;
    }

    public Instant createdAt() {
        return Instant.ofEpochMilli(createdAt);
    }

    public Instant updatedAt() {
        return Instant.ofEpochMilli(updatedAt);
    }
}
