package dev.switchboard.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.SQLTransientConnectionException;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;

/** SQLite's one connection: one caller at a time, in arrival order, the turn passed on at the first close only. */
class OneWriterDataSourceTest {

    private final AtomicInteger open = new AtomicInteger();
    private final AtomicInteger mostOpenAtOnce = new AtomicInteger();

    /** A pool that hands out as many connections as asked and counts how many are open at once. */
    private final DataSource pool = (DataSource) Proxy.newProxyInstance(DataSource.class.getClassLoader(),
            new Class<?>[] {DataSource.class}, (proxy, method, args) -> {
                if (!method.getName().equals("getConnection")) {
                    throw new UnsupportedOperationException(method.getName());
                }
                mostOpenAtOnce.accumulateAndGet(open.incrementAndGet(), Math::max);
                return Proxy.newProxyInstance(Connection.class.getClassLoader(), new Class<?>[] {Connection.class},
                        (c, m, a) -> {
                            if (m.getName().equals("close")) {
                                open.decrementAndGet();
                            }
                            return m.getReturnType() == boolean.class ? false : null;
                        });
            });

    @Test
    void manyCallersAtOnceGetTheConnectionOneAfterAnotherNoneTimingOut() throws Exception {
        OneWriterDataSource one = new OneWriterDataSource(pool, 30_000);
        int callers = 2_000;
        CountDownLatch done = new CountDownLatch(callers);
        List<Throwable> failures = new CopyOnWriteArrayList<>();
        for (int i = 0; i < callers; i++) {
            Thread.ofVirtual().start(() -> {
                try (Connection c = one.getConnection()) {
                    c.isReadOnly();
                    Thread.yield();
                } catch (Throwable t) {
                    failures.add(t);
                } finally {
                    done.countDown();
                }
            });
        }
        done.await();

        assertThat(failures).isEmpty();
        assertThat(mostOpenAtOnce.get()).isEqualTo(1);
        assertThat(open.get()).isZero();
    }

    @Test
    void aCallerWhoseTurnDoesNotComeInTimeIsToldTheDatabaseIsBusyAndClosingTwiceGivesOneTurnOnly() throws Exception {
        OneWriterDataSource one = new OneWriterDataSource(pool, 50);
        Connection held = one.getConnection();

        assertThatThrownBy(one::getConnection).isInstanceOf(SQLTransientConnectionException.class)
                .hasMessageContaining("busy");

        held.close();
        held.close();
        Connection next = one.getConnection();
        assertThat(held.isClosed()).isTrue();
        assertThatThrownBy(one::getConnection).isInstanceOf(SQLTransientConnectionException.class);
        next.close();
    }

    @Test
    void aBusyDatabaseIsTransientForTheCallerWhileABrokenStatementIsNot() {
        assertThat(new StoreException("x failed", new SQLTransientConnectionException("busy")).busyOrUnreachable()).isTrue();
        assertThat(new StoreException("x failed", new java.sql.SQLException("no such column", "42703")).busyOrUnreachable()).isFalse();
    }
}
