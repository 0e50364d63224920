package dev.switchboard.testkit;

import java.util.EnumSet;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The behaviour an upstream model name asks for. A suffix is any {@code -}-separated segment after the
 * first one, so suffixes combine in any order ({@code m-reasoning-cache}) and a name such as
 * {@code gpt-hangar} does not hang.
 *
 * @param flags      the behaviours switched on
 * @param failStatus the status of a {@code -failNNN} segment, if any
 */
record Scenario(Set<Flag> flags, Optional<Integer> failStatus) {

    /** One behaviour switch and the segment that turns it on. */
    enum Flag {
        HANG("hang"),
        RESET("reset"),
        MIDFAIL("midfail"),
        MIDRESET("midreset"),
        SLOW_FIRST("slowfirst"),
        EMPTY("empty"),
        REASONING("reasoning"),
        REASONING_FIELD("reasoningfield"),
        CACHE("cache"),
        PARALLEL("parallel"),
        NOPREFILL("noprefill"),
        REDACTED("redacted"),
        NOREASON("noreason"),
        REFUSAL("refusal"),
        FAILED("failed");

        private final String segment;

        Flag(String segment) {
            this.segment = segment;
        }
    }

    private static final Pattern FAIL = Pattern.compile("fail(\\d{3})");

    Scenario {
        flags = flags.isEmpty() ? Set.of() : Set.copyOf(EnumSet.copyOf(flags));
    }

    /** The scenario of a model name; a name without suffixes gives the plain, well-behaved upstream. */
    static Scenario of(String model) {
        Set<Flag> flags = EnumSet.noneOf(Flag.class);
        Optional<Integer> failStatus = Optional.empty();
        String[] segments = model.split("-");
        for (int i = 1; i < segments.length; i++) {
            String segment = segments[i];
            Matcher fail = FAIL.matcher(segment);
            if (fail.matches()) {
                failStatus = Optional.of(Integer.parseInt(fail.group(1)));
            }
            for (Flag flag : Flag.values()) {
                if (flag.segment.equals(segment)) {
                    flags.add(flag);
                }
            }
        }
        if (flags.contains(Flag.REASONING_FIELD)) {
            flags.add(Flag.REASONING); // the field variant is still a reasoning answer
        }
        return new Scenario(flags, failStatus);
    }

    boolean has(Flag flag) {
        return flags.contains(flag);
    }
}
