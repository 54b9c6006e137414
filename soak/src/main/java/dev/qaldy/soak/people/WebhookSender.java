package dev.qaldy.soak.people;

import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A webhook sender, Stripe-like: one delivery at a time, each with its own idempotency key, sent
 * again (signed again, the same key) after any answer but a 2xx, with a growing back-off (1, 2,
 * 4, 8 s…), until a 2xx or 12 attempts; when the soak stops, the delivery under way is still retried to the end.
 */
final class WebhookSender extends Actor {

    static final int ATTEMPTS = 12;

    private final String app;
    private final String hook;
    private final String secret;
    private int deliveries;
    private String pending;
    private int attempts;

    WebhookSender(long seed, Acts acts, AtomicBoolean running, String app, String hook, String secret) {
        super("sender-" + hook, seed, acts, running);
        this.app = app;
        this.hook = hook;
        this.secret = secret;
    }

    @Override
    void step() {
        if (pending == null) {
            pending = SoakCast.key(hook, ++deliveries);
            attempts = 0;
        }
        attempt();
    }

    private void attempt() {
        attempts++;
        Acts.Did sent = acts.webhook(name, gate(), app, hook, secret, pending);
        int status = sent.seen().status();
        if ((status >= 200 && status < 300) || attempts >= ATTEMPTS) { // like Stripe's, any other answer is tried again
            pending = null;
        }
    }

    @Override
    double[] pause() {
        if (pending == null) {
            return new double[] {3, 7};
        }
        double backOff = Math.min(8, Math.pow(2, attempts - 1));
        return new double[] {backOff, backOff};
    }

    @Override
    void finish() {
        while (pending != null) {
            sleep((long) (1000 * pause()[0]));
            attempt();
        }
    }
}
