package dev.qaldy.control.tickets.entity;

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

/**
 * A one-time sign-in ticket for one app's origin. Only the SHA-256 of the ticket is stored, so the
 * table never holds anything a reader could redeem.
 */
@Entity
@Table(name = "TICKETS", uniqueConstraints = @UniqueConstraint(name = "TICKETS_HASH_UQ", columnNames = "TICKET_HASH"))
@NamedQuery(name = Ticket.BY_HASH, query = "SELECT t FROM Ticket t WHERE t.hash = :hash")
@NamedQuery(name = Ticket.EXPIRED, query = "DELETE FROM Ticket t WHERE t.expiresAt <= :now")
@NamedQuery(name = Ticket.DELETE_OF_APP, query = "DELETE FROM Ticket t WHERE t.app = :app")
public class Ticket {

    public static final String BY_HASH = "Ticket.byHash";
    public static final String EXPIRED = "Ticket.expired";
    public static final String DELETE_OF_APP = "Ticket.deleteOfApp";

    @Id
    @SequenceGenerator(name = "TICKETS_SEQ", sequenceName = "TICKETS_SEQ", allocationSize = 20)
    @GeneratedValue(strategy = GenerationType.SEQUENCE, generator = "TICKETS_SEQ")
    private Long id;

    /** Lower-case hex SHA-256 of the ticket. */
    @Column(name = "TICKET_HASH", nullable = false, length = 64)
    private String hash;

    @Column(name = "PERSON_ID", nullable = false)
    private long personId;

    @Column(name = "APP_NAME", nullable = false, length = 63)
    private String app;

    @Column(name = "RETURN_PATH", nullable = false, length = 2048)
    private String returnPath;

    /** Epoch milliseconds. */
    @Column(name = "CREATED_AT", nullable = false)
    private long createdAt;

    /** Epoch milliseconds. */
    @Column(name = "EXPIRES_AT", nullable = false)
    private long expiresAt;

    /** Epoch milliseconds, or null while unused. */
    @Column(name = "USED_AT")
    private Long usedAt;

    protected Ticket() {
    }

    public Ticket(String hash, long personId, String app, String returnPath, Instant createdAt, Instant expiresAt) {
        this.hash = hash;
        this.personId = personId;
        this.app = app;
        this.returnPath = returnPath;
        this.createdAt = createdAt.toEpochMilli();
        this.expiresAt = expiresAt.toEpochMilli();
    }

    /** Whether the ticket may still be redeemed for {@code appName} at {@code now}. */
    public boolean isRedeemable(String appName, Instant now) {
        return usedAt == null && app.equals(appName) && now.toEpochMilli() < expiresAt;
    }

    /** Uses the ticket up; it can never be redeemed again. */
    public void use(Instant now) {
        if (usedAt != null) {
            throw new IllegalStateException("ticket already used");
        }
        usedAt = now.toEpochMilli();
    }

    public long personId() {
        return personId;
    }

    public String returnPath() {
        return returnPath;
    }
}
