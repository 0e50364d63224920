package dev.switchboard.engine.extend;

import java.util.List;
import java.util.function.Function;

/** One page of a list answer: the items, how many match in all, and the page and limit that were applied. */
public record Page<T>(List<T> items, long total, int page, int limit) {
    public Page {
        items = List.copyOf(items);
    }

    public <R> Page<R> map(Function<? super T, ? extends R> f) {
        return new Page<>(items.stream().<R>map(f).toList(), total, page, limit);
    }
}
