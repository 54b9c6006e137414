package dev.qaldy.control.sharing.entity;

import dev.qaldy.control.apps.entity.App;
import dev.qaldy.control.people.entity.EmailAddress;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.JoinColumn;
import jakarta.persistence.ManyToOne;
import jakarta.persistence.NamedQuery;
import jakarta.persistence.SequenceGenerator;
import jakarta.persistence.Table;
import jakarta.persistence.UniqueConstraint;
import java.time.Instant;

/**
 * A viewer of an app, by email: the person may not have signed up yet, and is let in once they
 * sign in with that email.
 */
@Entity
@Table(name = "SHARES", uniqueConstraints = @UniqueConstraint(name = "SHARES_APP_EMAIL_UQ", columnNames = {"APP_ID", "EMAIL"}))
@NamedQuery(name = Share.OF_APP, query = "SELECT s FROM Share s WHERE s.app = :app ORDER BY s.email")
@NamedQuery(name = Share.FIND, query = "SELECT s FROM Share s WHERE s.app = :app AND s.email = :email")
@NamedQuery(name = Share.COUNT, query = "SELECT COUNT(s) FROM Share s WHERE s.app = :app AND s.email = :email")
@NamedQuery(name = Share.DELETE_OF_APP, query = "DELETE FROM Share s WHERE s.app = :app")
public class Share {

    public static final String OF_APP = "Share.ofApp";
    public static final String FIND = "Share.find";
    public static final String COUNT = "Share.count";
    public static final String DELETE_OF_APP = "Share.deleteOfApp";

    @Id
    @SequenceGenerator(name = "SHARES_SEQ", sequenceName = "SHARES_SEQ", allocationSize = 20)
    @GeneratedValue(strategy = GenerationType.SEQUENCE, generator = "SHARES_SEQ")
    private Long id;

    @ManyToOne(optional = false)
    @JoinColumn(name = "APP_ID", nullable = false)
    private App app;

    @Column(name = "EMAIL", nullable = false, length = EmailAddress.MAX_LENGTH)
    private String email;

    /** Epoch milliseconds. */
    @Column(name = "CREATED_AT", nullable = false)
    private long createdAt;

    protected Share() {
    }

    /** @param email an address normalized by {@link EmailAddress#normalize} */
    public Share(App app, String email, Instant createdAt) {
        this.app = app;
        this.email = email;
        this.createdAt = createdAt.toEpochMilli();
    }

    public String email() {
        return email;
    }

    public Instant createdAt() {
        return Instant.ofEpochMilli(createdAt);
    }
}
