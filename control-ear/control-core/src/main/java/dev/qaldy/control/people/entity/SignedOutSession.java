package dev.qaldy.control.people.entity;

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
 * A session token its holder signed out of: the API refuses it until it would have expired anyway.
 * The gates verify tokens offline: each is told of a sign-out by a push (people/control/SignOutPush)
 * and keeps its own bounded list in memory, which a starting gate loads from the unexpired marks
 * ({@code GET /api/v1/internal/signed-out-sessions}).
 */
@Entity
@Table(name = "SIGNED_OUT_SESSIONS",
        uniqueConstraints = @UniqueConstraint(name = "SIGNED_OUT_TOKEN_UQ", columnNames = "TOKEN_ID"))
@NamedQuery(name = SignedOutSession.COUNT_BY_TOKEN,
        query = "SELECT COUNT(s) FROM SignedOutSession s WHERE s.tokenId = :tokenId")
@NamedQuery(name = SignedOutSession.EXPIRED, query = "DELETE FROM SignedOutSession s WHERE s.expiresAt <= :now")
@NamedQuery(name = SignedOutSession.UNEXPIRED_AFTER,
        query = "SELECT s FROM SignedOutSession s WHERE s.id > :after AND s.expiresAt > :now ORDER BY s.id")
public class SignedOutSession {

    public static final String COUNT_BY_TOKEN = "SignedOutSession.countByToken";
    public static final String EXPIRED = "SignedOutSession.expired";
    public static final String UNEXPIRED_AFTER = "SignedOutSession.unexpiredAfter";

    @Id
    @SequenceGenerator(name = "SIGNED_OUT_SEQ", sequenceName = "SIGNED_OUT_SEQ", allocationSize = 20)
    @GeneratedValue(strategy = GenerationType.SEQUENCE, generator = "SIGNED_OUT_SEQ")
    private Long id;

    @Column(name = "TOKEN_ID", nullable = false, length = 64)
    private String tokenId;

    /** Epoch milliseconds. */
    @Column(name = "EXPIRES_AT", nullable = false)
    private long expiresAt;

    protected SignedOutSession() {
    }

    public SignedOutSession(String tokenId, Instant expiresAt) {
        this.tokenId = tokenId;
        this.expiresAt = expiresAt.toEpochMilli();
    }

    /** With a position already given (tests of the feed's paging). */
    SignedOutSession(long id, String tokenId, Instant expiresAt) {
        this(tokenId, expiresAt);
        this.id = id;
    }

    /** The mark's position in the feed of marks (its sequence id). */
    public long id() {
        return id;
    }

    /** The mark as the gates are told of it. */
    public SessionSignedOut mark() {
        return new SessionSignedOut(tokenId, Instant.ofEpochMilli(expiresAt));
    }
}
