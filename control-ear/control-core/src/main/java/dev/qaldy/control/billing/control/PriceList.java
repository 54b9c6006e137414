package dev.qaldy.control.billing.control;

import dev.qaldy.contract.cap.CapState;
import dev.qaldy.contract.cap.Prices;
import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * The cell's billing settings (MicroProfile Config): prices in millicents (1 cent = 1000
 * millicents) per request through the gate and per CPU millisecond of server code, the default
 * monthly cap in cents of an account whose owner never set one, and the free allowance in cents:
 * usage each period that the cap does not count. An account's apps sleep when its usage in the
 * period reaches cap + free allowance, so a cap of 0 allows the free allowance and nothing more.
 */
@ApplicationScoped
public class PriceList {

    /** The largest cap an owner may set, in cents (one million dollars). */
    public static final long MAX_CAP_CENTS = 100_000_000L;

    @Inject
    @ConfigProperty(name = "qaldy.billing.price.request-millicents", defaultValue = "10")
    long requestMillicents;

    @Inject
    @ConfigProperty(name = "qaldy.billing.price.cpu-ms-millicents", defaultValue = "1")
    long cpuMsMillicents;

    @Inject
    @ConfigProperty(name = "qaldy.billing.default-cap-cents", defaultValue = "500")
    long defaultCapCents;

    @Inject
    @ConfigProperty(name = "qaldy.billing.free-allowance-cents", defaultValue = "100")
    long freeAllowanceCents;

    private Prices prices;

    @PostConstruct
    void check() {
        prices = new Prices(requestMillicents, cpuMsMillicents);
        if (defaultCapCents < 0 || defaultCapCents > MAX_CAP_CENTS || freeAllowanceCents < 0
                || freeAllowanceCents > CapState.MAX_CAP_CENTS - MAX_CAP_CENTS) {
            throw new IllegalStateException("qaldy.billing.default-cap-cents must be 0.." + MAX_CAP_CENTS
                    + " and qaldy.billing.free-allowance-cents not negative: " + defaultCapCents + ", " + freeAllowanceCents);
        }
    }

    public Prices prices() {
        return prices;
    }

    public long defaultCapCents() {
        return defaultCapCents;
    }

    public long freeAllowanceCents() {
        return freeAllowanceCents;
    }

    /** What an account with {@code capCents} may use per period: its cap plus the free allowance, in cents. */
    public long limitCents(long capCents) {
        return capCents + freeAllowanceCents;
    }

    /** Whether {@code spentMillicents} reached the limit of an account with {@code capCents}. */
    public boolean reached(long capCents, long spentMillicents) {
        return spentMillicents >= limitCents(capCents) * 1000;
    }
}
