package dev.qaldy.control.webhooks.control;

import dev.qaldy.control.platform.control.QaldyException;

/**
 * A delivery handed over from a gate's queue for a hook that no longer exists (HTTP 410, issue 17):
 * the gate drops it. Not 404, which a gate cannot tell from a control plane without the endpoint.
 */
public class HookGone extends QaldyException {

    private static final long serialVersionUID = 1L;

    public HookGone(String detail) {
        super(detail);
    }

    @Override
    public int status() {
        return 410;
    }

    @Override
    protected String slug() {
        return "hook-gone";
    }

    @Override
    public String title() {
        return "Hook gone";
    }
}
