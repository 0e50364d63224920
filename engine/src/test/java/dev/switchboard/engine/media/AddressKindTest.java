package dev.switchboard.engine.media;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class AddressKindTest {

    @ParameterizedTest(name = "{0} is {1}")
    @CsvSource({
            // IPv4
            "0.0.0.0, UNSPECIFIED",
            "0.1.2.3, UNSPECIFIED",
            "127.0.0.1, LOOPBACK",
            "127.255.255.254, LOOPBACK",
            "10.0.0.1, PRIVATE",
            "10.255.255.255, PRIVATE",
            "172.16.0.1, PRIVATE",
            "172.31.255.255, PRIVATE",
            "172.15.255.255, PUBLIC",
            "172.32.0.0, PUBLIC",
            "192.168.1.1, PRIVATE",
            "192.169.0.1, PUBLIC",
            "100.64.0.1, SHARED",
            "100.127.255.255, SHARED",
            "100.63.255.255, PUBLIC",
            "100.128.0.0, PUBLIC",
            "169.254.169.254, LINK_LOCAL",
            "169.253.0.1, PUBLIC",
            "224.0.0.1, MULTICAST",
            "239.255.255.250, MULTICAST",
            "240.0.0.1, RESERVED",
            "255.255.255.255, RESERVED",
            "192.0.0.8, RESERVED",
            "192.0.2.10, RESERVED",
            "198.51.100.7, RESERVED",
            "203.0.113.9, RESERVED",
            "198.18.0.1, RESERVED",
            "198.19.255.255, RESERVED",
            "198.20.0.1, PUBLIC",
            "192.88.99.1, RESERVED",
            "8.8.8.8, PUBLIC",
            "93.184.216.34, PUBLIC",
            "1.1.1.1, PUBLIC",
            // IPv6
            "::, UNSPECIFIED",
            "::1, LOOPBACK",
            "fe80::1, LINK_LOCAL",
            "febf::1, LINK_LOCAL",
            "fec0::1, PRIVATE",
            "fc00::1, PRIVATE",
            "fdff:ffff::1, PRIVATE",
            "ff02::1, MULTICAST",
            "::127.0.0.1, LOOPBACK",
            "::10.0.0.1, PRIVATE",
            "::8.8.8.8, PUBLIC",
            "64:ff9b::a9fe:a9fe, LINK_LOCAL",
            "64:ff9b::808:808, PUBLIC",
            "64:ff9b:1::1, PRIVATE",
            "2002:7f00:1::, LOOPBACK",
            "2002:c0a8:101::1, PRIVATE",
            "2002:808:808::1, PUBLIC",
            "2001::1, RESERVED",
            "2001:db8::1, RESERVED",
            "3fff::1, RESERVED",
            "100::1, RESERVED",
            "4000::1, RESERVED",
            "2001:4860:4860::8888, PUBLIC",
            "2606:4700:4700::1111, PUBLIC",
    })
    void classifies(String address, AddressKind expected) throws UnknownHostException {
        assertThat(AddressKind.of(InetAddress.getByName(address))).isEqualTo(expected);
    }

    /** Java turns ::ffff:a.b.c.d into an IPv4 address when parsing; built byte by byte it stays IPv6. */
    @ParameterizedTest(name = "::ffff:{0} is {1}")
    @CsvSource({"127.0.0.1, LOOPBACK", "10.1.2.3, PRIVATE", "169.254.169.254, LINK_LOCAL", "100.64.1.1, SHARED",
            "0.0.0.0, UNSPECIFIED", "224.0.0.1, MULTICAST", "8.8.4.4, PUBLIC"})
    void ipv4MappedAddressesAreJudgedByTheirIpv4Address(String v4, AddressKind expected) throws UnknownHostException {
        byte[] b = new byte[16];
        b[10] = (byte) 0xff;
        b[11] = (byte) 0xff;
        System.arraycopy(InetAddress.getByName(v4).getAddress(), 0, b, 12, 4);
        InetAddress mapped = Inet6Address.getByAddress(null, b, -1);
        assertThat(mapped).isInstanceOf(Inet6Address.class);
        assertThat(AddressKind.of(mapped)).isEqualTo(expected);
        assertThat(AddressKind.of(InetAddress.getByName("::ffff:" + v4))).isEqualTo(expected);
    }

    @Test
    void theGuardRefusesEverythingButPublicUnlessATestAllowsIt() throws UnknownHostException {
        InetAddress loopback = InetAddress.getByName("127.0.0.1");
        assertThat(AddressGuard.publicOnly().refusal(loopback)).contains(AddressKind.LOOPBACK);
        assertThat(AddressGuard.publicOnly().refusal(InetAddress.getByName("8.8.8.8"))).isEmpty();
        AddressGuard test = AddressGuard.allowingForTests(java.util.Set.of(loopback));
        assertThat(test.refusal(loopback)).isEmpty();
        assertThat(test.refusal(InetAddress.getByName("127.0.0.2"))).contains(AddressKind.LOOPBACK);
        assertThat(test.refusal(InetAddress.getByName("10.0.0.1"))).contains(AddressKind.PRIVATE);
    }
}
