package dev.qaldy.control.people.entity;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.Index;
import jakarta.persistence.NamedQuery;
import jakarta.persistence.SequenceGenerator;
import jakarta.persistence.Table;
import java.time.Instant;

/**
 * One failed sign-in for an email (known or not) from one client address, kept while it counts
 * towards the slow-down.
 */
@Entity
@Table(name = "SIGN_IN_FAILURES", indexes = @Index(name = "SIGN_IN_FAILURES_EMAIL_IX", columnList = "EMAIL, AT_MS"))
@NamedQuery(name = SignInFailure.RECENT,
        query = "SELECT f.at FROM SignInFailure f WHERE f.email = :email AND f.at > :since ORDER BY f.at")
@NamedQuery(name = SignInFailure.RECENT_FROM,
        query = "SELECT f.at FROM SignInFailure f WHERE f.email = :email AND f.address = :address AND f.at > :since ORDER BY f.at")
@NamedQuery(name = SignInFailure.FORGET, query = "DELETE FROM SignInFailure f WHERE f.email = :email")
@NamedQuery(name = SignInFailure.OLDER_THAN, query = "DELETE FROM SignInFailure f WHERE f.at <= :until")
public class SignInFailure {

    public static final String RECENT = "SignInFailure.recent";
    public static final String RECENT_FROM = "SignInFailure.recentFrom";
    public static final String FORGET = "SignInFailure.forget";
    public static final String OLDER_THAN = "SignInFailure.olderThan";

    @Id
    @SequenceGenerator(name = "SIGN_IN_FAILURES_SEQ", sequenceName = "SIGN_IN_FAILURES_SEQ", allocationSize = 20)
    @GeneratedValue(strategy = GenerationType.SEQUENCE, generator = "SIGN_IN_FAILURES_SEQ")
    private Long id;

    @Column(name = "EMAIL", nullable = false, length = EmailAddress.MAX_LENGTH)
    private String email;

    /** Longest client address kept, in characters (an IPv6 literal with a zone fits). */
    public static final int MAX_ADDRESS_LENGTH = 64;

    /** The client's address as the API resolved it (the gate's X-Forwarded-For, else the peer). */
    @Column(name = "ADDRESS", length = MAX_ADDRESS_LENGTH)
    private String address;

    /** Epoch milliseconds. */
    @Column(name = "AT_MS", nullable = false)
    private long at;

    protected SignInFailure() {
    }

    public SignInFailure(String email, String address, Instant at) {
        this.email = email;
        this.address = address;
        this.at = at.toEpochMilli();
    }
}
