"""mangacircus/netguard.py's address check on IPv6 forms that carry an IPv4 address inside."""
import socket

import pytest

from mangacircus import netguard

# Literals only: getaddrinfo answers them without DNS.
REFUSED = [
    # IPv4-compatible ::/96 (deprecated): refused whatever it carries
    "::7f00:1", "::127.0.0.1", "::a00:1", "::8.8.8.8", "::", "::1", "::0.0.0.2",
    # IPv4-mapped ::ffff:0:0/96
    "::ffff:127.0.0.1", "::ffff:7f00:1", "::ffff:10.0.0.1", "::ffff:169.254.169.254", "::ffff:0.0.0.0",
    "::ffff:224.0.0.1",
    # IPv4-translated ::ffff:0:0:0/96
    "::ffff:0:7f00:1", "::ffff:0:127.0.0.1", "::ffff:0:a00:1", "::ffff:0:c0a8:10a", "::ffff:0:a9fe:a9fe",
    "::ffff:0:6440:1", "::ffff:0:0:0",
    # NAT64, well-known prefix 64:ff9b::/96 and local-use 64:ff9b:1::/48
    "64:ff9b::7f00:1", "64:ff9b::127.0.0.1", "64:ff9b::a00:1", "64:ff9b::ac10:1", "64:ff9b::c0a8:101",
    "64:ff9b::a9fe:a9fe", "64:ff9b::6440:1", "64:ff9b::e000:1", "64:ff9b::",
    "64:ff9b:1::7f00:1", "64:ff9b:1:ffff:ffff:ffff:a00:1", "64:ff9b:1::a9fe:a9fe",
    # 6to4 2002::/16: the IPv4 is bits 16-47
    "2002:7f00:1::1", "2002:7f00:1:ffff::1", "2002:a00:1::", "2002:c0a8:101::1", "2002:a9fe:a9fe::1",
    "2002:6440:1::1", "2002::1", "2002:e000:1::1",
    # Teredo 2001::/32: server and (obfuscated) client IPv4, neither a webhook or a site
    "2001:0:4136:e378:8000:63bf:80ff:fffe", "2001::1", "2001:0:808:808::1", "2001:0:808:808::f7f7:f7f7",
    # plain IPv6 that is not public, as before
    "fe80::1", "fd00:ec2::254", "fc00::1", "ff02::1", "2001:db8::1", "100::1",
]

PUBLIC = [
    "::ffff:8.8.8.8", "::ffff:0:808:808", "64:ff9b::808:808", "64:ff9b::1.1.1.1", "64:ff9b:1::808:808",
    "2002:808:808::1", "2002:101:101:1::1", "2606:4700:4700::1111", "2a00:1450:4001:81b::200e",
]


@pytest.mark.parametrize("literal", REFUSED)
def test_it_refuses_ipv6_forms_of_addresses_that_are_not_public(literal):
    with pytest.raises(netguard.NotPublic) as refused:
        netguard.checked_address(literal, 80)
    assert refused.value.host == literal


@pytest.mark.parametrize("literal", PUBLIC)
def test_it_accepts_ipv6_forms_of_public_addresses(literal):
    family, address = netguard.checked_address(literal, 80)
    assert family in (socket.AF_INET6, socket.AF_INET)


def test_it_lets_the_caller_admit_an_embedding_address():
    seen = []

    def allowed(host, ip):
        seen.append(str(ip))
        return True

    assert netguard.checked_address("64:ff9b::7f00:1", 80, allowed)[1] == "64:ff9b::7f00:1"
    assert seen == ["64:ff9b::7f00:1"]
