package dev.switchboard.engine.upstream;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** What Helidon's reader gets from a plain upstream socket: exactly the bytes that arrived, each read as it came. */
class PlainUpstreamSocketTest {
    @Test
    void eachReadIsWhatArrivedAndTheEndIsNull() throws Exception {
        try (ServerSocket server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
             Socket client = new Socket()) {
            client.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), server.getLocalPort()));
            PlainUpstreamSocket socket = new PlainUpstreamSocket(client, "0x1");
            try (Socket peer = server.accept()) {
                OutputStream out = peer.getOutputStream();
                out.write("data: one\n\n".getBytes(StandardCharsets.US_ASCII));
                out.flush();
                assertThat(new String(socket.get(), StandardCharsets.US_ASCII)).isEqualTo("data: one\n\n");

                // more than one read's worth, already there: read in pieces of at most MAX_READ, nothing lost
                byte[] big = new byte[PlainUpstreamSocket.MAX_READ * 2 + 17];
                Arrays.fill(big, (byte) 'x');
                out.write(big);
                out.flush();
                int total = 0;
                while (total < big.length) {
                    byte[] got = socket.get();
                    assertThat(got.length).isBetween(1, PlainUpstreamSocket.MAX_READ);
                    total += got.length;
                }
                assertThat(total).isEqualTo(big.length);

                // a single byte waited for
                Thread writer = Thread.ofVirtual().start(() -> {
                    try {
                        Thread.sleep(100);
                        out.write('z');
                        out.flush();
                    } catch (IOException | InterruptedException e) {
                        throw new IllegalStateException(e);
                    }
                });
                assertThat(socket.get()).containsExactly('z');
                writer.join();
                assertThat(socket.isConnected()).isTrue();
            }
            assertThat(socket.get()).as("the peer closed").isNull();
            assertThat(socket.isConnected()).isFalse();
            assertThat(socket.remotePeer().port()).isEqualTo(server.getLocalPort());
        }
    }
}
