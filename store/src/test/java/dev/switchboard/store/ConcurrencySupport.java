package dev.switchboard.store;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/** Concurrency for the store contracts: many callers of one store (or of one database) at once. */
final class ConcurrencySupport {
    private ConcurrencySupport() {
    }

    /**
     * Runs every task at once, on {@code threads} threads (released together, so they race), waits for all and
     * returns their results in the order of {@code tasks}; a task that threw fails the call, as does one still
     * running after two minutes.
     */
    static <T> List<T> concurrently(int threads, List<? extends Callable<? extends T>> tasks) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        CountDownLatch start = new CountDownLatch(1);
        try {
            List<Future<? extends T>> futures = new ArrayList<>();
            for (Callable<? extends T> t : tasks) {
                futures.add(pool.submit(() -> {
                    start.await();
                    return t.call();
                }));
            }
            start.countDown();
            List<T> results = new ArrayList<>();
            for (Future<? extends T> f : futures) {
                results.add(f.get(120, TimeUnit.SECONDS));
            }
            return results;
        } finally {
            pool.shutdownNow();
        }
    }
}
