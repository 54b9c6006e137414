package dev.qaldy.control.builds.entity;

import jakarta.persistence.Basic;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.FetchType;
import jakarta.persistence.Id;
import jakarta.persistence.Lob;
import jakarta.persistence.NamedQuery;
import jakarta.persistence.Table;

/** The bytes of a built bundle (a normalized zip), kept apart so listing builds never loads them. */
@Entity
@Table(name = "BUNDLE_BYTES")
@NamedQuery(name = BundleBytes.DELETE_OF_APP,
        query = "DELETE FROM BundleBytes b WHERE b.buildId IN (SELECT x.id FROM Build x WHERE x.app = :app)")
public class BundleBytes {

    public static final String DELETE_OF_APP = "BundleBytes.deleteOfApp";

    /** The id of the {@link Build} these bytes belong to. */
    @Id
    @Column(name = "BUILD_ID")
    private long buildId;

    @Lob
    @Basic(fetch = FetchType.LAZY)
    @Column(name = "DATA", nullable = false)
    private byte[] data;

    protected BundleBytes() {
    }

    /** Takes ownership of {@code data} (not copied: bundles are large). */
    public BundleBytes(long buildId, byte[] data) {
        this.buildId = buildId;
        this.data = data;
    }

    /** The bundle bytes themselves (not a copy: bundles are large; do not change them). */
    public byte[] data() {
        return data;
    }
}
