package dev.qaldy.gate.shield;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetAddress;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ClientAddressTest {

    private static final ClientAddress DIRECT = new ClientAddress(IpRanges.NONE, 64);
    private static final ClientAddress BEHIND_PROXIES = new ClientAddress(IpRanges.parse("10.0.0.0/8, 2001:db8:ff::/48"), 64);

    /** {@code forwarded}: X-Forwarded-For header values separated by '|', or empty for none. */
    @ParameterizedTest(name = "[{index}] peer {1}, X-Forwarded-For {2} → {3}")
    @CsvSource(delimiter = ';', value = {
        // no trusted proxies: the peer, whatever the client wrote
        "direct;  127.0.0.1;   '';                              127.0.0.1",
        "direct;  127.0.0.1;   6.6.6.6;                         127.0.0.1",
        "direct;  203.0.113.9; '6.6.6.6, 10.0.0.1';             203.0.113.9",
        "direct;  10.0.0.1;    6.6.6.6;                         10.0.0.1",
        // an untrusted peer's X-Forwarded-For is ignored even with proxies configured
        "proxies; 203.0.113.9; 6.6.6.6;                         203.0.113.9",
        "proxies; 127.0.0.1;   10.0.0.5;                        127.0.0.1",
        // a trusted peer: the right-most address that is not a trusted proxy
        "proxies; 10.0.0.1;    198.51.100.7;                    198.51.100.7",
        "proxies; 10.0.0.1;    '6.6.6.6, 198.51.100.7';         198.51.100.7",
        "proxies; 10.0.0.1;    '6.6.6.6, 198.51.100.7, 10.0.0.2'; 198.51.100.7",
        "proxies; 10.0.0.1;    '6.6.6.6|198.51.100.7, 10.9.9.9'; 198.51.100.7",
        "proxies; 10.0.0.1;    '198.51.100.7:4711';             198.51.100.7",
        "proxies; 10.0.0.1;    '[2001:db8::7]:443';             2001:db8:0:0:0:0:0:7",
        "proxies; 2001:db8:ff::1; '2001:db8::7, 2001:db8:ff::2'; 2001:db8:0:0:0:0:0:7",
        // every hop trusted: the left-most; no header: the proxy itself
        "proxies; 10.0.0.1;    '10.0.0.3, 10.0.0.2';            10.0.0.3",
        "proxies; 10.0.0.1;    '';                              10.0.0.1",
        // garbage stops the walk at the last trusted hop
        "proxies; 10.0.0.1;    'unknown';                       10.0.0.1",
        "proxies; 10.0.0.1;    '198.51.100.7, evil.example, 10.0.0.2'; 10.0.0.2",
        "proxies; 10.0.0.1;    ' , 198.51.100.7 ,';             198.51.100.7",
    })
    void resolvesTheClient(String setup, String peer, String forwarded, String client) {
        ClientAddress resolver = setup.equals("direct") ? DIRECT : BEHIND_PROXIES;
        List<String> values = forwarded.isEmpty() ? List.of() : Arrays.asList(forwarded.split("\\|"));
        assertThat(resolver.resolve(peer, values)).map(InetAddress::getHostAddress).contains(client);
    }

    @Test
    void aPeerThatIsNoAddressIsUnknown() {
        assertThat(DIRECT.resolve("not-an-ip", List.of("6.6.6.6"))).isEmpty();
        assertThat(DIRECT.key(Optional.empty())).isEqualTo("unknown");
    }

    @ParameterizedTest(name = "{0} → {1}")
    @CsvSource({
        "203.0.113.9,           203.0.113.9",
        "2001:db8:1:2:3:4:5:6,  2001:db8:1:2:0:0:0:0/64",
        "2001:db8:1:2:ffff::1,  2001:db8:1:2:0:0:0:0/64",
        "::1,                   0:0:0:0:0:0:0:0/64",
    })
    void ipv6ClientsAreCountedPerSlash64(String address, String key) throws Exception {
        assertThat(DIRECT.key(Optional.of(InetAddress.getByName(address)))).isEqualTo(key);
    }

    @Test
    void aFullLengthPrefixCountsEachAddress() throws Exception {
        assertThat(new ClientAddress(IpRanges.NONE, 128).key(Optional.of(InetAddress.getByName("2001:db8::1"))))
                .isEqualTo("2001:db8:0:0:0:0:0:1");
        assertThatThrownBy(() -> new ClientAddress(IpRanges.NONE, 0)).isInstanceOf(IllegalArgumentException.class);
    }
}
