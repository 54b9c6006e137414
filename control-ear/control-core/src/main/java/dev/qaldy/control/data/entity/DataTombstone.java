package dev.qaldy.control.data.entity;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Index;
import jakarta.persistence.NamedQuery;
import jakarta.persistence.Table;
import java.util.Objects;

/**
 * A deleted record, or all of a deleted app's data ({@code recordId} null), as a change of the data
 * feed (issue 18): kept so a runtime host that was away drops it from its replica too, never shows
 * it again. Its sequence comes from {@link DataClock}.
 */
@Entity
@Table(name = "DATA_TOMBSTONES", indexes = @Index(name = "DATA_TOMBSTONES_APP_IX", columnList = "APP_NAME,SEQUENCE"))
@NamedQuery(name = DataTombstone.SINCE, query = "SELECT t FROM DataTombstone t WHERE t.sequence > :since ORDER BY t.sequence")
@NamedQuery(name = DataTombstone.SINCE_OF_APP, query = "SELECT t FROM DataTombstone t WHERE t.appName = :app AND t.sequence > :since"
        + " ORDER BY t.sequence")
public class DataTombstone {

    public static final String SINCE = "DataTombstone.since";
    public static final String SINCE_OF_APP = "DataTombstone.sinceOfApp";

    @Id
    @Column(name = "SEQUENCE")
    private long sequence;

    @Column(name = "APP_NAME", nullable = false, length = 63)
    private String appName;

    @Column(name = "COLLECTION_NAME", length = 40)
    private String collection;

    @Column(name = "RECORD_ID")
    private Long recordId;

    protected DataTombstone() {
    }

    private DataTombstone(long sequence, String appName, String collection, Long recordId) {
        this.sequence = sequence;
        this.appName = Objects.requireNonNull(appName, "appName");
        this.collection = collection;
        this.recordId = recordId;
    }

    /** Record {@code id} of {@code collection} was deleted as change {@code sequence}. */
    public static DataTombstone ofRecord(long sequence, String appName, String collection, long id) {
        return new DataTombstone(sequence, appName, collection, id);
    }

    /** All of app {@code appName}'s data was deleted (with the app) as change {@code sequence}. */
    public static DataTombstone ofApp(long sequence, String appName) {
        return new DataTombstone(sequence, appName, null, null);
    }

    public long sequence() {
        return sequence;
    }

    public String appName() {
        return appName;
    }

    /** Null for an app's whole data. */
    public String collection() {
        return collection;
    }

    /** Null for an app's whole data. */
    public Long recordId() {
        return recordId;
    }
}
