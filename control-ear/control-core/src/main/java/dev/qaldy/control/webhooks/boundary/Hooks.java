package dev.qaldy.control.webhooks.boundary;

import dev.qaldy.contract.session.Session;
import dev.qaldy.control.apps.control.AppGuard;
import dev.qaldy.control.apps.entity.App;
import dev.qaldy.control.audit.entity.Audited;
import dev.qaldy.control.platform.control.Conflict;
import dev.qaldy.control.platform.control.NotFound;
import dev.qaldy.control.schedules.control.LiveJobs;
import dev.qaldy.control.schedules.entity.JobName;
import dev.qaldy.control.schedules.entity.Run;
import dev.qaldy.control.schedules.entity.RunQueued;
import dev.qaldy.contract.hooks.HookSignature;
import dev.qaldy.control.webhooks.control.BadSignature;
import dev.qaldy.control.webhooks.control.HookChanges;
import dev.qaldy.control.webhooks.control.Idempotency;
import dev.qaldy.control.webhooks.entity.Delivery;
import dev.qaldy.control.webhooks.entity.Hook;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Event;
import jakarta.inject.Inject;
import jakarta.json.Json;
import jakarta.persistence.EntityManager;
import jakarta.persistence.LockModeType;
import jakarta.persistence.PersistenceContext;
import jakarta.transaction.Transactional;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * An app's webhooks: the owner creates (the secret is shown once), lists, rolls the secret of and deletes them; senders
 * deliver to {@code /hooks/<app>/<hook>}. A delivery is checked (hook known, signature right and
 * timestamped within {@code qaldy.webhooks.tolerance}),
 * recorded with its body hash and signature timestamp (the same signed delivery sent again within
 * the tolerance is a replay, with any idempotency key or none) and queues a run of the hook's job, all in one transaction; the
 * hook's row is locked meanwhile, so two copies of one delivery never both queue a run.
 */
@ApplicationScoped
@Transactional
public class Hooks {

    /** What a delivery to an unknown app or hook is checked against: made in this process, never given to anyone. */
    private static final String UNKNOWN_HOOK_SECRET = HookSignature.newSecret();

    /** Most hooks one app may have. */
    public static final int MAX_PER_APP = 20;

    /**
     * A new hook as its owner sees it once, with its secret.
     *
     * @param note null when the live version registers the hook's job; else why it could not be checked
     */
    public record Created(Hook hook, String secret, String url, String note) {
    }

    /**
     * What a delivery became.
     *
     * @param deliveryId the id the sender is told
     * @param replayed   true when an earlier delivery with the same key and body was found (no new run)
     */
    public record Received(String deliveryId, boolean replayed) {
    }

    @PersistenceContext(unitName = "qaldy")
    EntityManager em;

    @Inject
    AppGuard guard;

    @Inject
    Clock clock;

    @Inject
    Event<Audited> audit;

    @Inject
    Event<RunQueued> queued;

    @Inject
    LiveJobs liveJobs;

    @Inject
    HookChanges changes;

    @Inject
    @ConfigProperty(name = "qaldy.public-url", defaultValue = "http://localhost:8080")
    String publicUrl;

    /** How far a signature's timestamp may be from now, either way (Stripe's default: 5 min). */
    @Inject
    @ConfigProperty(name = "qaldy.webhooks.tolerance", defaultValue = "PT5M")
    Duration tolerance;

    /** Where senders deliver to: {@code <public url>/hooks/<app>/<hook>}. */
    public String url(String app, String hook) {
        return publicUrl.replaceAll("/+$", "") + "/hooks/" + app + "/" + hook;
    }

    /** The app's hooks by name (owner only). */
    public List<Hook> list(Session me, String appName) {
        App app = guard.owned(me, appName);
        return em.createNamedQuery(Hook.OF_APP, Hook.class).setParameter("app", app).getResultList();
    }

    /**
     * Creates a hook with a new secret (owner only).
     *
     * @throws dev.qaldy.control.platform.control.InvalidInput for a bad name or job, or a job the live version does
     *         not register ({@link LiveJobs}; no live version yet: created with a note)
     * @throws Conflict when the name is taken in this app, or the app has {@value #MAX_PER_APP} hooks
     */
    public Created create(Session me, String appName, String name, String job) {
        Hook.checkName(name);
        JobName.check(job);
        App app = guard.ownedForUpdate(me, appName);
        String note = liveJobs.check(app, job);
        if (byName(app, name) != null) {
            throw new Conflict(appName + " already has a hook named " + name);
        }
        if (em.createNamedQuery(Hook.OF_APP, Hook.class).setParameter("app", app).getResultList().size() >= MAX_PER_APP) {
            throw new Conflict(appName + " has " + MAX_PER_APP + " hooks, the most an app may have; delete one first");
        }
        String secret = HookSignature.newSecret();
        Hook hook = new Hook(app, name, job, secret, me.email(), clock.instant());
        em.persist(hook);
        changes.made(hook); // every gate learns it before the API answers (issue 17)
        audit.fire(new Audited(me.email(), Hook.AUDIT_CREATE, app.id(), app.name(), "hook " + name + " runs job " + job));
        return new Created(hook, secret, url(app.name(), name), note);
    }

    /**
     * Deletes a hook and its delivery records (owner only); runs it queued stay in the run list.
     *
     * @throws NotFound when the app has no such hook
     */
    public void delete(Session me, String appName, String name) {
        App app = guard.ownedForUpdate(me, appName);
        Hook hook = Hook.isWellFormed(name) ? byName(app, name) : null;
        if (hook == null) {
            throw new NotFound(appName + " has no hook named " + (Hook.isWellFormed(name) ? name : "like that"));
        }
        em.createNamedQuery(Delivery.DELETE_OF_HOOK).setParameter("hookId", hook.id()).executeUpdate();
        em.remove(hook);
        changes.deleted(app.name(), name);
        audit.fire(new Audited(me.email(), Hook.AUDIT_DELETE, app.id(), app.name(), "hook " + name));
    }

    /**
     * Rolls the hook's secret (owner only): a new secret in force from now, shown once; the one it replaces
     * stays in force for {@code keepPrevious} (zero: it stops now; at most {@link Hook#MAX_PREVIOUS}). Every
     * gate learns both, and when the previous one stops, before the API answers (issue 17).
     *
     * @throws NotFound when the app has no such hook
     * @throws dev.qaldy.control.platform.control.InvalidInput when {@code keepPrevious} is out of range
     */
    public Created roll(Session me, String appName, String hookName, Duration keepPrevious) {
        App app = guard.ownedForUpdate(me, appName);
        owned(app, hookName);
        Hook hook = locked(app, hookName);
        String secret = HookSignature.newSecret();
        Instant now = clock.instant();
        hook.roll(secret, now, keepPrevious);
        changes.made(hook);
        Instant until = hook.previousAcceptedUntil(now);
        audit.fire(new Audited(me.email(), Hook.AUDIT_ROLL, app.id(), app.name(), "hook " + hookName
                + (until == null ? "; the previous secret stopped at once" : "; the previous secret stays in force until " + until)));
        return new Created(hook, secret, url(app.name(), hookName), null);
    }

    /**
     * Receives one delivery.
     *
     * @param body      the raw body, already read within its bound
     * @param signature the {@code Qaldy-Signature} header ({@code t=<unix s>,v1=<hex>}), or null
     * @param oldSignature the {@code X-Qaldy-Signature} header of the old scheme, or null: only to say it is no longer accepted
     * @param key       the sender's idempotency key ({@link Idempotency#key}), or null. The same signed delivery
     *                  (signature timestamp and body) sent again is a replay whatever its key
     * @throws BadSignature when the signature is missing, malformed, wrong (always so for an unknown app or hook:
     *                      the same answer, so hook names cannot be enumerated), or its timestamp is outside the tolerance
     * @throws Conflict     when the key was used before with a different body
     */
    public Received receive(String appName, String hookName, byte[] body, String signature, String oldSignature, String key) {
        App app = Hook.isWellFormed(hookName) ? guard.byName(appName).orElse(null) : null;
        Hook hook = app == null ? null : locked(app, hookName);
        Instant checkedAt = clock.instant();
        // Issue 16: an unknown app or hook answers as a known one with a wrong signature (checked against a secret no
        // sender has), so hook names cannot be enumerated by their 404s.
        HookSignature.Verdict verdict = HookSignature.check(hook == null ? List.of(UNKNOWN_HOOK_SECRET) : hook.secretsAt(checkedAt),
                body, signature, checkedAt, tolerance);
        if (verdict != HookSignature.Verdict.VALID) {
            throw new BadSignature(refusal(verdict, signature, oldSignature, checkedAt));
        }
        return record(app, hook, body, signature, key, UUID.randomUUID().toString(), checkedAt, null);
    }

    /**
     * Records a checked delivery and queues its run, or finds it recorded: the same signed delivery
     * (hook, {@code t}, body) or the same key with the same body is a replay. Called with the hook's row locked.
     *
     * @param deliveryId the id for a new record
     * @param receivedAt when it reached the cell (at the gate, for one handed over from its queue)
     * @param edge       null for a delivery received now; else how the audit names where it waited
     * @throws Conflict when the key was used before with a different body
     */
    public Received record(App app, Hook hook, byte[] body, String signature, String key, String deliveryId, Instant receivedAt,
            String edge) {
        String hash = HookSignature.sha256(body);
        long signedAt = HookSignature.timestamp(signature);
        // Issue 16: the same signed delivery sent again within the tolerance (captured, or retried with another or
        // no Idempotency-Key, which the signature does not cover) is the delivery already recorded, never a second run.
        // Issue 17: the same holds for one handed over by two gates, or twice by one.
        Delivery sameSigned = em.createNamedQuery(Delivery.BY_SIGNATURE, Delivery.class).setParameter("hookId", hook.id())
                .setParameter("signedAt", signedAt).setParameter("bodySha256", hash).getResultStream().findFirst().orElse(null);
        if (sameSigned != null) {
            return new Received(sameSigned.deliveryId(), true);
        }
        Delivery recorded = key == null ? null : em.createNamedQuery(Delivery.BY_KEY, Delivery.class)
                .setParameter("hookId", hook.id()).setParameter("key", key).getResultStream().findFirst().orElse(null);
        switch (Idempotency.decide(recorded == null ? null : recorded.bodySha256(), hash)) {
            case REPLAY -> {
                return new Received(recorded.deliveryId(), true);
            }
            case CONFLICT -> throw new Conflict("this idempotency key was already used for a different body");
            default -> {
                // a new delivery, below
            }
        }
        Instant now = clock.instant();
        Delivery delivery = new Delivery(deliveryId, hook.id(), key, hash, body.length, signedAt, receivedAt);
        em.persist(delivery);
        String payload = new String(body, StandardCharsets.UTF_8);
        Run run = edge == null ? Run.webhook(app, hook.name(), hook.job(), payload, now)
                : Run.edgeWebhook(app, hook.name(), hook.job(), payload, receivedAt, now);
        em.persist(run);
        em.flush();
        delivery.queued(run.id());
        audit.fire(new Audited(edge == null ? Run.WEBHOOK : Run.EDGE_WEBHOOK, Run.AUDIT_RUN, app.id(), app.name(),
                "job " + hook.job() + " for hook " + hook.name() + " (delivery " + delivery.deliveryId() + ", run " + run.id() + ")"
                + (edge == null ? "" : "; " + edge)));
        queued.fire(new RunQueued(run.id()));
        return new Received(delivery.deliveryId(), false);
    }

    /** The hook named so, its row locked until the transaction ends; null when there is none. */
    public Hook locked(App app, String hookName) {
        return em.createNamedQuery(Hook.BY_NAME, Hook.class).setParameter("app", app).setParameter("name", hookName)
                .setLockMode(LockModeType.PESSIMISTIC_WRITE).getResultStream().findFirst().orElse(null);
    }

    /** The 401's detail ({@link HookSignature#refusal}). */
    private String refusal(HookSignature.Verdict verdict, String signature, String oldSignature, Instant now) {
        return HookSignature.refusal(verdict, signature, oldSignature != null, now, tolerance);
    }

    /**
     * Sends the hook a test delivery as a sender would (owner only; issue 20, "send a test delivery"):
     * a JSON body {@code {"type":"qaldy.test","app","hook","sentAt"}} signed now with the hook's own
     * secret, received through {@link #receive} like any delivery, so it is checked, recorded (marked as a
     * test) and runs the hook's job. A sender's signing can then be compared with a delivery known good.
     *
     * @throws NotFound when the app has no such hook
     */
    public Received sendTest(Session me, String appName, String hookName) {
        App app = guard.owned(me, appName);
        Hook hook = owned(app, hookName);
        Instant now = clock.instant();
        byte[] body = Json.createObjectBuilder().add("type", "qaldy.test").add("app", app.name()).add("hook", hook.name())
                .add("sentAt", now.toString()).build().toString().getBytes(StandardCharsets.UTF_8);
        String signature = HookSignature.sign(hook.secret(), now.getEpochSecond(), body);
        return receive(app.name(), hook.name(), body, signature, null, Delivery.TEST_KEY_PREFIX + UUID.randomUUID());
    }

    /**
     * A hook's latest deliveries, newest first, with the runs they queued (owner only).
     *
     * @param limit most deliveries returned, 1 to 100
     * @throws NotFound when the app has no such hook
     */
    public List<DeliveryRecord> deliveries(Session me, String appName, String hookName, int limit) {
        Hook hook = owned(guard.owned(me, appName), hookName);
        return em.createNamedQuery(Delivery.OF_HOOK, Delivery.class).setParameter("hookId", hook.id())
                .setMaxResults(Math.max(1, Math.min(limit, 100))).getResultStream()
                .map(d -> new DeliveryRecord(d, d.runId() == null ? null : em.find(Run.class, d.runId()))).toList();
    }

    /**
     * A delivery with the run it queued.
     *
     * @param run null when the run is gone (its app's runs were pruned) or none was queued
     */
    public record DeliveryRecord(Delivery delivery, Run run) {
    }

    private Hook owned(App app, String name) {
        Hook hook = Hook.isWellFormed(name) ? byName(app, name) : null;
        if (hook == null) {
            throw new NotFound(app.name() + " has no hook named " + (Hook.isWellFormed(name) ? name : "like that"));
        }
        return hook;
    }

    private Hook byName(App app, String name) {
        return em.createNamedQuery(Hook.BY_NAME, Hook.class).setParameter("app", app).setParameter("name", name)
                .getResultStream().findFirst().orElse(null);
    }
}
