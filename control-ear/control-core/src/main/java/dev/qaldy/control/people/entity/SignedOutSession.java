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
 * and keeps its own bounded list in memory.
 */
@Entity
@Table(name = "SIGNED_OUT_SESSIONS",
        uniqueConstraints = @UniqueConstraint(name = "SIGNED_OUT_TOKEN_UQ", columnNames = "TOKEN_ID"))
@NamedQuery(name = SignedOutSession.COUNT_BY_TOKEN,
        query = "SELECT COUNT(s) FROM SignedOutSession s WHERE s.tokenId = :tokenId")
@NamedQuery(name = SignedOutSession.EXPIRED, query = "DELETE FROM SignedOutSession s WHERE s.expiresAt <= :now")
public class SignedOutSession {

    public static final String COUNT_BY_TOKEN = "SignedOutSession.countByToken";
    public static final String EXPIRED = "SignedOutSession.expired";

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
}
