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
import java.util.Objects;

/** A person with an account: a normalized email and a PBKDF2 password hash, never the password. */
@Entity
@Table(name = "PEOPLE", uniqueConstraints = @UniqueConstraint(name = "PEOPLE_EMAIL_UQ", columnNames = "EMAIL"))
@NamedQuery(name = Person.BY_EMAIL, query = "SELECT p FROM Person p WHERE p.email = :email")
public class Person {

    public static final String BY_EMAIL = "Person.byEmail";

    @Id
    @SequenceGenerator(name = "PEOPLE_SEQ", sequenceName = "PEOPLE_SEQ", allocationSize = 20)
    @GeneratedValue(strategy = GenerationType.SEQUENCE, generator = "PEOPLE_SEQ")
    private Long id;

    @Column(name = "EMAIL", nullable = false, length = EmailAddress.MAX_LENGTH)
    private String email;

    @Column(name = "PASSWORD_HASH", nullable = false, length = 512)
    private String passwordHash;

    /** Epoch milliseconds. */
    @Column(name = "CREATED_AT", nullable = false)
    private long createdAt;

    protected Person() {
    }

    /** @param email an address already normalized by {@link EmailAddress#normalize} */
    public Person(String email, String passwordHash, Instant createdAt) {
        this.email = Objects.requireNonNull(email, "email");
        this.passwordHash = Objects.requireNonNull(passwordHash, "passwordHash");
        this.createdAt = createdAt.toEpochMilli();
    }

    public Long id() {
        return id;
    }

    public String email() {
        return email;
    }

    public String passwordHash() {
        return passwordHash;
    }

    public Instant createdAt() {
        return Instant.ofEpochMilli(createdAt);
    }
}
