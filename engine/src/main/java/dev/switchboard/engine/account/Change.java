package dev.switchboard.engine.account;

import java.util.Objects;
import java.util.function.Function;

/**
 * One field of a partial update ({@code PATCH}): left as it is (the field was absent), set to a value, or
 * cleared (the field was JSON {@code null}: "no limit", "no expiry").
 */
public sealed interface Change<T> {
    /** The field was not mentioned. */
    record Keep<T>() implements Change<T> {
    }

    /** The field is to become {@code value}. */
    record Set<T>(T value) implements Change<T> {
        public Set {
            Objects.requireNonNull(value, "value");
        }
    }

    /** The field is to be removed. */
    record Clear<T>() implements Change<T> {
    }

    static <T> Change<T> keep() {
        return new Keep<>();
    }

    static <T> Change<T> set(T value) {
        return new Set<>(value);
    }

    static <T> Change<T> clear() {
        return new Clear<>();
    }

    /** Whether the field was mentioned at all. */
    default boolean mentioned() {
        return !(this instanceof Keep<T>);
    }

    /** The value after the change, given the value before it; {@code clear} is what a cleared field becomes. */
    default <R> R applyTo(R before, Function<T, R> set, R clear) {
        return switch (this) {
            case Keep<T> k -> before;
            case Set<T> s -> set.apply(s.value());
            case Clear<T> c -> clear;
        };
    }
}
