package dev.switchboard.testkit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;

/**
 * Ports for servers the tests start themselves (a gateway process, redis-server, a proxy) when the server must be
 * told its port up front rather than bind port 0 and say which it got.
 */
public final class PortSupport {
    private PortSupport() {
    }

    /**
     * A loopback port that was free a moment ago: the operating system picked it for a socket that is closed again
     * before this returns. Another process may take it before the caller binds it; on one test machine that is rare
     * enough.
     */
    public static int freeLoopbackPort() {
        try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return probe.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
