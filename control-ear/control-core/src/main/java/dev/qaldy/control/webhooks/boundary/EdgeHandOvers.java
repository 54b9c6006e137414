package dev.qaldy.control.webhooks.boundary;

import dev.qaldy.contract.hooks.HookSignature;
import dev.qaldy.control.apps.control.AppGuard;
import dev.qaldy.control.apps.entity.App;
import dev.qaldy.control.audit.entity.Audited;
import dev.qaldy.control.schedules.entity.Run;
import dev.qaldy.control.webhooks.control.BadSignature;
import dev.qaldy.control.webhooks.control.HookGone;
import dev.qaldy.control.webhooks.entity.Hook;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Event;
import jakarta.inject.Inject;
import jakarta.transaction.Transactional;
import java.time.Instant;

/**
 * Deliveries a gate queued while the API could not be asked and hands over now (issue 17). The gate
 * vouches with its own credential for the check it made at receipt, so the 5-minute tolerance is not
 * applied again; the hook must still exist, and the signature must be the HMAC with a secret that
 * was in force at receipt ({@link Hook#secretsAt}: a secret rolled since still counts until its end). Deduplicated as any delivery
 * ({@link Hooks#record}): one queued on two gates, or handed over twice, runs once.
 */
@ApplicationScoped
@Transactional
public class EdgeHandOvers {

    /** The audit's action for a queued delivery dropped at the edge for its age. */
    public static final String AUDIT_EXPIRED = "webhook.edge-expired";

    @Inject
    Hooks hooks;

    @Inject
    AppGuard guard;

    @Inject
    Event<Audited> audit;

    /**
     * @param receivedAt when the gate received and checked it
     * @param gateDeliveryId the id the gate told the sender, kept for a new record
     * @throws HookGone     when the app or hook is gone
     * @throws BadSignature when no secret in force at receipt signed it
     */
    public Hooks.Received handOver(String appName, String hookName, byte[] body, String signature, String key, String gateDeliveryId,
            Instant receivedAt) {
        App app = Hook.isWellFormed(hookName) ? guard.byName(appName).orElse(null) : null;
        Hook hook = app == null ? null : hooks.locked(app, hookName);
        if (hook == null) {
            throw new HookGone(appName + " has no hook named " + (Hook.isWellFormed(hookName) ? hookName : "like that")
                    + " any more; the delivery queued at the edge is dropped");
        }
        if (hook.createdAt().isAfter(receivedAt)) {
            throw new BadSignature("the hook's secret was made after the delivery was received at the edge");
        }
        if (HookSignature.signedBy(hook.secretsAt(receivedAt), body, signature) != HookSignature.Verdict.VALID) {
            throw new BadSignature("the delivery queued at the edge is not signed with a secret the hook had in force when it was received");
        }
        return hooks.record(app, hook, body, signature, key, gateDeliveryId, receivedAt,
                "queued at the edge, received " + receivedAt);
    }

    /** A queued delivery the gate kept past {@code qaldy.gate.webhook-queue-max-age} and dropped: an audit line, no run. */
    public void expired(String appName, String hookName, String gateDeliveryId, Instant receivedAt) {
        App app = guard.byName(appName).orElse(null);
        audit.fire(new Audited(Run.EDGE_WEBHOOK, AUDIT_EXPIRED, app == null ? null : app.id(), appName,
                "delivery " + gateDeliveryId + " for hook " + hookName + ", received " + receivedAt
                        + ", kept at the edge past its longest wait and dropped without a run"));
    }
}
