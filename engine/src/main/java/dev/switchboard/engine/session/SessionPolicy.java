package dev.switchboard.engine.session;

import java.time.Duration;
import java.util.Objects;

/**
 * How long sessions live and how sign-in attempts are throttled.
 *
 * @param idle               a session unused this long is over
 * @param absolute           a session is over this long after sign-in, however active
 * @param touchEvery         how often the last-use time is written (so a busy dashboard is not a write per request);
 *                           idle expiry is exact to within this
 * @param window             the throttling window of failed sign-ins
 * @param failuresPerLogin   failed sign-ins for one login name (existing or not) within the window before refusing
 * @param failuresPerAddress failed sign-ins from one client address within the window before refusing
 * @param signupsPerAddress  sign-ups from one client address within the window
 * @param openSignup         whether {@code POST /auth/signup} is open
 */
public record SessionPolicy(Duration idle, Duration absolute, Duration touchEvery, Duration window, int failuresPerLogin,
                            int failuresPerAddress, int signupsPerAddress, boolean openSignup) {
    public static final SessionPolicy DEFAULT = new SessionPolicy(Duration.ofDays(7), Duration.ofDays(30),
            Duration.ofMinutes(1), Duration.ofMinutes(15), 10, 50, 5, false);

    public SessionPolicy {
        Objects.requireNonNull(idle, "idle");
        Objects.requireNonNull(absolute, "absolute");
        Objects.requireNonNull(touchEvery, "touchEvery");
        Objects.requireNonNull(window, "window");
        if (failuresPerLogin < 1 || failuresPerAddress < 1 || signupsPerAddress < 1) {
            throw new IllegalArgumentException("throttling limits must be at least 1");
        }
    }

    public SessionPolicy withLifetimes(Duration newIdle, Duration newAbsolute) {
        return new SessionPolicy(newIdle, newAbsolute, touchEvery.compareTo(newIdle) < 0 ? touchEvery : newIdle.dividedBy(2),
                window, failuresPerLogin, failuresPerAddress, signupsPerAddress, openSignup);
    }

    public SessionPolicy withOpenSignup(boolean open) {
        return new SessionPolicy(idle, absolute, touchEvery, window, failuresPerLogin, failuresPerAddress, signupsPerAddress, open);
    }
}
