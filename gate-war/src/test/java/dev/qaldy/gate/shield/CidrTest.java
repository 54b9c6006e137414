package dev.qaldy.gate.shield;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetAddress;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class CidrTest {

    @ParameterizedTest(name = "{0} contains {1}: {2}")
    @CsvSource({
        // IPv4 edges
        "10.0.0.0/8,        10.0.0.0,          true",
        "10.0.0.0/8,        10.255.255.255,    true",
        "10.0.0.0/8,        9.255.255.255,     false",
        "10.0.0.0/8,        11.0.0.0,          false",
        "192.168.1.128/25,  192.168.1.128,     true",
        "192.168.1.128/25,  192.168.1.255,     true",
        "192.168.1.128/25,  192.168.1.127,     false",
        "172.16.0.0/12,     172.31.255.255,    true",
        "172.16.0.0/12,     172.32.0.0,        false",
        "203.0.113.7,       203.0.113.7,       true",
        "203.0.113.7/32,    203.0.113.8,       false",
        "0.0.0.0/0,         255.255.255.255,   true",
        "0.0.0.0/0,         ::1,               false",
        "10.1.2.3/8,        10.200.0.1,        true",
        // IPv6 edges
        "2001:db8::/32,     2001:db8::1,                    true",
        "2001:db8::/32,     2001:db8:ffff:ffff:ffff:ffff:ffff:ffff, true",
        "2001:db8::/32,     2001:db9::,                     false",
        "2001:db8:0:1::/63, 2001:db8:0:1:ffff::1,           true",
        "2001:db8:0:2::/63, 2001:db8:0:1::1,                false",
        "2001:db8::/33,     2001:db8:8000::,                false",
        "2001:db8::/33,     2001:db8:7fff::,                true",
        "::1,               ::1,                            true",
        "::1/128,           ::2,                            false",
        "::/0,              2001:db8::1,                    true",
        "::/0,              10.0.0.1,                       false",
        "[2001:db8::]/32,   2001:db8::5,                    true",
        // IPv4-mapped IPv6: the IPv4 address and range
        "::ffff:10.0.0.0/104, 10.1.2.3,                     true",
        "::ffff:10.0.0.0/104, 11.0.0.1,                     false",
        "10.0.0.0/8,        ::ffff:10.9.9.9,                true",
    })
    void matches(String range, String address, boolean inside) throws Exception {
        assertThat(Cidr.parse(range).contains(InetAddress.getByName(address))).isEqualTo(inside);
    }

    @ParameterizedTest
    @ValueSource(strings = {"", " ", "10.0.0.0/33", "2001:db8::/129", "10.0.0/8", "10.0.0.0/-1", "10.0.0.0/",
        "10.0.0.256/8", "010.0.0.1", "1.2.3.4.5", "example.com", "example.com/24", "localhost", "10.0.0.0/8/8",
        "::ffff:10.0.0.0/95", "2001:db8::g/32", ".:1", "1:2:3", "10.0.0.0/1a"})
    void refusesWhatIsNotARange(String text) {
        assertThatThrownBy(() -> Cidr.parse(text)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void hostBitsAreIgnoredAndItPrintsItsNetwork() {
        assertThat(Cidr.parse("10.1.2.3/8")).hasToString("10.0.0.0/8").isEqualTo(Cidr.parse("10.0.0.0/8"));
        assertThat(Cidr.parse("2001:db8::1/32")).hasToString("2001:db8:0:0:0:0:0:0/32");
        assertThat(Cidr.parse("203.0.113.7")).hasToString("203.0.113.7/32");
        assertThat(Cidr.parse(" 2001:db8::1 ").prefix()).isEqualTo(128);
    }

    @Test
    void aListMatchesAnyOfItsRanges() throws Exception {
        IpRanges ranges = IpRanges.parse(" 192.0.2.0/24 , ,2001:db8::/32");
        assertThat(ranges.ranges()).hasSize(2);
        assertThat(ranges.contains(InetAddress.getByName("192.0.2.99"))).isTrue();
        assertThat(ranges.contains(InetAddress.getByName("2001:db8::7"))).isTrue();
        assertThat(ranges.contains(InetAddress.getByName("198.51.100.1"))).isFalse();
        assertThat(IpRanges.parse(null).isEmpty()).isTrue();
        assertThat(IpRanges.parse("").contains(InetAddress.getByName("10.0.0.1"))).isFalse();
        assertThat(IpRanges.NONE.plus(ranges)).isEqualTo(ranges);
        assertThat(ranges.plus(IpRanges.parse("10.0.0.0/8")).contains(InetAddress.getByName("10.2.3.4"))).isTrue();
        assertThatThrownBy(() -> IpRanges.parse("10.0.0.0/8,nope")).hasMessageContaining("nope");
    }

    @ParameterizedTest(name = "{0} → {1}")
    @CsvSource({
        "203.0.113.7,            203.0.113.7",
        "' 203.0.113.7 ',        203.0.113.7",
        "::1,                    0:0:0:0:0:0:0:1",
        "[2001:db8::1],          2001:db8:0:0:0:0:0:1",
        "fe80::1%eth0,           fe80:0:0:0:0:0:0:1",
        "::ffff:192.0.2.1,       192.0.2.1",
        "255.255.255.255,        255.255.255.255",
    })
    void ipLiteralsAreReadStrictly(String text, String address) {
        assertThat(IpLiteral.parse(text)).map(InetAddress::getHostAddress).contains(address);
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "unknown", "localhost", "example.com", "1.2.3", "01.2.3.4", "1.2.3.4.", "0x7f.0.0.1",
        "2130706433", "1.2.3.4:80", "[1.2.3.4]x", ":::", "g::1", "_gateway"})
    void anythingElseIsNoAddress(String text) {
        assertThat(IpLiteral.parse(text)).isEmpty();
    }

    @ParameterizedTest(name = "{0} → {1}")
    @CsvSource({
        "203.0.113.7:51234,      203.0.113.7",
        "[2001:db8::1]:443,      2001:db8:0:0:0:0:0:1",
        "[2001:db8::1],          2001:db8:0:0:0:0:0:1",
        "2001:db8::1,            2001:db8:0:0:0:0:0:1",
    })
    void forwardedEntriesMayCarryAPort(String text, String address) {
        assertThat(IpLiteral.parseWithPort(text)).map(InetAddress::getHostAddress).contains(address);
    }
}
