package dev.qaldy.control.billing.control;

import dev.qaldy.contract.cap.CapState;
import dev.qaldy.contract.cap.CapStates;
import dev.qaldy.control.billing.entity.BillingAccount;
import dev.qaldy.control.platform.control.CellKeyring;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Clock;

/** Signs an account's current cap state with the cell's key: its limit (cap + free allowance), spending, prices and sequence. */
@ApplicationScoped
public class CapStateSigner {

    @Inject
    CellKeyring keys;

    @Inject
    PriceList prices;

    @Inject
    Clock clock;

    /** The state of {@code account} as it is now, signed. */
    public String sign(BillingAccount account) {
        return CapStates.sign(state(account), keys.signingKey());
    }

    /** The state of {@code account}, unsigned. */
    public CapState state(BillingAccount account) {
        return new CapState(account.personId(), account.period(),
                prices.limitCents(account.capCents(prices.defaultCapCents())), account.spentMillicents(),
                account.asOf().toEpochMilli(), prices.prices(), clock.millis(), account.sequence());
    }
}
