package dev.switchboard.engine.media;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.List;

/**
 * Resolves a host name (or an IP literal, without brackets) to every address it has. The fetcher calls it
 * exactly once per connection and connects only to what it returned, so a second lookup answering
 * differently (DNS rebinding) cannot redirect the connection.
 */
@FunctionalInterface
public interface HostResolver {
    /** The system resolver. */
    HostResolver SYSTEM = host -> List.of(InetAddress.getAllByName(host));

    /** Every address of {@code host}; never empty. */
    List<InetAddress> resolve(String host) throws UnknownHostException;
}
