package dev.switchboard.engine.upstream;

import static org.assertj.core.api.Assertions.assertThat;

import io.helidon.common.tls.Tls;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The pool's rules on real loopback sockets: bound, expiry, newest first, dead connections never reused. */
class UpstreamPoolTest {
    private static final Duration CONNECT = Duration.ofSeconds(2);

    private ServerSocket server;
    private final List<Socket> accepted = new ArrayList<>();
    private final AtomicLong now = new AtomicLong(1_000_000_000L);
    private UpstreamPool pool;
    private UpstreamPool.Target target;

    @BeforeEach
    void listen() throws IOException {
        server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread.ofVirtual().start(() -> {
            while (!server.isClosed()) {
                try {
                    Socket s = server.accept();
                    synchronized (accepted) {
                        accepted.add(s);
                    }
                } catch (IOException e) {
                    return;
                }
            }
        });
        pool = new UpstreamPool(new UpstreamPool.Settings(2, Duration.ofSeconds(30)), () -> Tls.builder().enabled(false).build(),
                now::get);
        target = pool.target(URI.create("http://127.0.0.1:" + server.getLocalPort() + "/v1/chat"));
    }

    @AfterEach
    void close() throws IOException {
        pool.close();
        server.close();
        synchronized (accepted) {
            for (Socket s : accepted) {
                s.close();
            }
        }
    }

    @Test
    void aReturnedConnectionIsReusedNewestFirst() {
        List<UpstreamConnection> returned = takeThenReturn(2);

        UpstreamConnection again = pool.take(target, CONNECT);

        assertThat(again).isSameAs(returned.getLast());
        assertThat(again.reused()).isTrue();
        assertThat(pool.openConnections()).isEqualTo(2);
        assertThat(pool.idleConnections()).isEqualTo(1);
    }

    @Test
    void beyondTheBoundAReturnedConnectionIsClosed() {
        List<UpstreamConnection> returned = takeThenReturn(3);

        assertThat(returned.getLast().isClosed()).isTrue();
        assertThat(pool.idleConnections()).isEqualTo(2);
        assertThat(pool.openConnections()).isEqualTo(2);
    }

    @Test
    void anExpiredConnectionIsClosedBySweepAndNeverReused() {
        UpstreamConnection a = pool.take(target, CONNECT);
        a.releaseResource();
        now.addAndGet(Duration.ofSeconds(31).toNanos());

        pool.sweep();

        assertThat(a.isClosed()).isTrue();
        assertThat(pool.openConnections()).isZero();
        assertThat(pool.take(target, CONNECT)).isNotSameAs(a);
    }

    @Test
    void aConnectionThePeerClosedIsNotReused() throws Exception {
        UpstreamConnection a = pool.take(target, CONNECT);
        a.releaseResource();
        Socket peer = awaitAccepted(1);
        peer.close(); // the provider's keep-alive timeout

        UpstreamConnection next = awaitDifferent(a);

        assertThat(a.isClosed()).isTrue();
        assertThat(next.reused()).isFalse();
    }

    @Test
    void aLiveKeptConnectionPassesTheCheck() {
        UpstreamConnection a = pool.take(target, CONNECT);
        a.releaseResource();

        assertThat(a.stillOpen()).isTrue();
        pool.sweep();
        assertThat(pool.idleConnections()).isEqualTo(1);
    }

    /** Takes {@code n} connections, all open at once, then returns them to the pool in the order they were taken. */
    private List<UpstreamConnection> takeThenReturn(int n) {
        List<UpstreamConnection> taken = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            taken.add(pool.take(target, CONNECT));
        }
        taken.forEach(UpstreamConnection::releaseResource);
        return taken;
    }

    private Socket awaitAccepted(int n) throws InterruptedException {
        for (int i = 0; i < 500; i++) {
            synchronized (accepted) {
                if (accepted.size() >= n) {
                    return accepted.get(n - 1);
                }
            }
            Thread.sleep(10);
        }
        throw new AssertionError("the server accepted no connection");
    }

    /** The peer's FIN reaches our socket asynchronously; the pool must notice it once it has. */
    private UpstreamConnection awaitDifferent(UpstreamConnection old) throws InterruptedException {
        for (int i = 0; i < 500; i++) {
            UpstreamConnection c = pool.take(target, CONNECT);
            if (c != old) {
                return c;
            }
            c.releaseResource();
            Thread.sleep(10);
        }
        throw new AssertionError("a connection the peer closed was still handed out");
    }
}
