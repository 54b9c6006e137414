package dev.qaldy.soak.people;

import dev.qaldy.soak.Soak;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One member of the population: a loop of steps with pauses between them, each step's choices
 * and pauses drawn from its own random numbers seeded from the soak's seed and its name (so a
 * seed gives every actor the same plan), until the soak says stop. A step that throws is counted
 * and the loop goes on: a person tries again.
 */
abstract class Actor implements Runnable {

    final String name;
    final Random random;
    final Acts acts;
    private final AtomicBoolean running;
    final AtomicInteger stumbles = new AtomicInteger();

    Actor(String name, long seed, Acts acts, AtomicBoolean running) {
        this.name = name;
        this.random = new Random(seed * 1_000_003L + name.hashCode());
        this.acts = acts;
        this.running = running;
    }

    /** One action of the plan. */
    abstract void step();

    /** Seconds to wait after a step: the actor's pace. */
    abstract double[] pause();

    /** After the soak said stop: finish what was started (a delivery's retries). */
    void finish() {
    }

    boolean running() {
        return running.get();
    }

    @Override
    public void run() {
        while (running()) {
            try {
                step();
            } catch (RuntimeException e) {
                stumbles.incrementAndGet();
            }
            double[] p = pause();
            waitWhileRunning((long) (1000 * (p[0] + random.nextDouble() * (p[1] - p[0]))));
        }
        try {
            finish();
        } catch (RuntimeException e) {
            stumbles.incrementAndGet();
        }
    }

    /** A gate, chosen from the plan. */
    String gate() {
        List<String> gates = acts.gates();
        return gates.get(random.nextInt(gates.size()));
    }

    <T> T pick(List<T> from) {
        return from.get(random.nextInt(from.size()));
    }

    void waitWhileRunning(long ms) {
        long until = Soak.CLOCK.millis() + ms;
        while (running() && Soak.CLOCK.millis() < until) {
            sleep(Math.min(250, Math.max(1, until - Soak.CLOCK.millis())));
        }
    }

    static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
