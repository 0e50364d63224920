package dev.switchboard.engine.media;

import java.net.InetAddress;

/**
 * What kind of network an IP address belongs to, for the SSRF guard (docs/contracts.md §5). Only
 * {@link #PUBLIC} addresses may be fetched from.
 *
 * <p>IPv4: {@code 0/8} unspecified; {@code 127/8} loopback; {@code 10/8}, {@code 172.16/12},
 * {@code 192.168/16} private; {@code 100.64/10} shared (carrier-grade NAT); {@code 169.254/16} link-local;
 * {@code 224/4} multicast; {@code 240/4} (broadcast included), {@code 192.0.0/24}, the documentation
 * ranges, {@code 192.88.99/24} and {@code 198.18/15} reserved.
 *
 * <p>IPv6: {@code ::} unspecified; {@code ::1} loopback; {@code fc00::/7} and the deprecated site-local
 * {@code fec0::/10} private; {@code fe80::/10} link-local; {@code ff00::/8} multicast. Addresses that
 * carry an IPv4 address are judged by that address: IPv4-mapped {@code ::ffff:0:0/96}, IPv4-compatible
 * {@code ::/96}, NAT64 {@code 64:ff9b::/96} and 6to4 {@code 2002::/16}. Everything else outside global
 * unicast {@code 2000::/3}, plus {@code 2001::/23} (Teredo and other protocol assignments, whose embedded
 * addresses cannot be judged) and the documentation ranges, is reserved.
 */
public enum AddressKind {
    PUBLIC, UNSPECIFIED, LOOPBACK, PRIVATE, SHARED, LINK_LOCAL, MULTICAST, RESERVED;

    /** The kind of {@code address}. */
    public static AddressKind of(InetAddress address) {
        byte[] b = address.getAddress();
        return b.length == 4 ? ofV4(b, 0) : ofV6(b);
    }

    private static AddressKind ofV4(byte[] b, int at) {
        int a = b[at] & 0xff;
        int c = b[at + 1] & 0xff;
        int d = b[at + 2] & 0xff;
        if (a == 0) {
            return UNSPECIFIED;
        }
        if (a == 127) {
            return LOOPBACK;
        }
        if (a == 10 || a == 172 && (c & 0xf0) == 16 || a == 192 && c == 168) {
            return PRIVATE;
        }
        if (a == 100 && (c & 0xc0) == 64) {
            return SHARED;
        }
        if (a == 169 && c == 254) {
            return LINK_LOCAL;
        }
        if (a >= 224 && a <= 239) {
            return MULTICAST;
        }
        if (a >= 240
                || a == 192 && c == 0 && (d == 0 || d == 2)
                || a == 192 && c == 88 && d == 99
                || a == 198 && (c & 0xfe) == 18
                || a == 198 && c == 51 && d == 100
                || a == 203 && c == 0 && d == 113) {
            return RESERVED;
        }
        return PUBLIC;
    }

    private static AddressKind ofV6(byte[] b) {
        if (zero(b, 0, 12)) {
            if (zero(b, 12, 16)) {
                return UNSPECIFIED;
            }
            if (zero(b, 12, 15) && b[15] == 1) {
                return LOOPBACK;
            }
            return ofV4(b, 12); // IPv4-compatible (deprecated, but a stack may still route it)
        }
        int b0 = b[0] & 0xff;
        int b1 = b[1] & 0xff;
        if (zero(b, 0, 10) && (b[10] & 0xff) == 0xff && (b[11] & 0xff) == 0xff) {
            return ofV4(b, 12); // IPv4-mapped
        }
        if (b0 == 0x00 && b1 == 0x64 && (b[2] & 0xff) == 0xff && (b[3] & 0xff) == 0x9b) {
            if (zero(b, 4, 12)) {
                return ofV4(b, 12); // NAT64 well-known prefix: a translator reaches this IPv4 address
            }
            return PRIVATE; // 64:ff9b:1::/48, local-use NAT64
        }
        if (b0 == 0xff) {
            return MULTICAST;
        }
        if (b0 == 0xfe && (b1 & 0xc0) == 0x80) {
            return LINK_LOCAL;
        }
        if (b0 == 0xfe && (b1 & 0xc0) == 0xc0 || (b0 & 0xfe) == 0xfc) {
            return PRIVATE;
        }
        if (b0 == 0x20 && b1 == 0x02) {
            return ofV4(b, 2); // 6to4
        }
        if ((b0 & 0xe0) != 0x20
                || b0 == 0x20 && b1 == 0x01 && (b[2] & 0xfe) == 0
                || b0 == 0x20 && b1 == 0x01 && (b[2] & 0xff) == 0x0d && (b[3] & 0xff) == 0xb8
                || b0 == 0x3f && b1 == 0xff && (b[2] & 0xf0) == 0) {
            return RESERVED;
        }
        return PUBLIC;
    }

    private static boolean zero(byte[] b, int from, int to) {
        for (int i = from; i < to; i++) {
            if (b[i] != 0) {
                return false;
            }
        }
        return true;
    }
}
