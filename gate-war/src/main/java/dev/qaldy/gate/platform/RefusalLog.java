package dev.qaldy.gate.platform;

import dev.qaldy.contract.keys.RefusalTally;
import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;
import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedScheduledExecutorService;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Clock;
import java.util.logging.Logger;

/**
 * The gate's refused internal calls, logged per client address and minute ({@link RefusalTally},
 * lines begin "gate:"); an ended minute's counts are logged within
 * {@value RefusalTally#SWEEP_SECONDS} s, and those not logged yet when the gate stops.
 */
@ApplicationScoped
public class RefusalLog {

    private RefusalTally tally;

    @Resource
    ManagedScheduledExecutorService scheduler;

    /** For the container's proxy. */
    protected RefusalLog() {
    }

    @Inject
    public RefusalLog(Logger log, Clock clock) {
        this.tally = new RefusalTally("gate", log, clock);
    }

    @PostConstruct
    void start() {
        tally.sweepOn(scheduler);
    }

    @PreDestroy
    void stop() {
        tally.close();
    }

    /**
     * Records one refused call from {@code address}; {@code what} says what and why (e.g. "a sharing
     * push without the service token").
     *
     * @return true when this refusal was logged on its own line, false when it was only counted
     */
    public boolean refused(String what, String address) {
        return tally.refused(what, address);
    }
}
