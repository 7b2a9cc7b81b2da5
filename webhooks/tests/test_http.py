"""The safe HTTP session: addresses refused after DNS resolution, the exemption setting,
redirects, timeouts and TLS verification, against a real local HTTPS server."""

import socket
import time

import orjson
import pytest
import requests
import urllib3.util.connection

from webhooks import http

BODY = orjson.dumps({"type": "ping"})
HEADERS = {"Content-Type": "application/json"}

REFUSED_URLS = [
    "https://127.0.0.1/hooks",
    "https://127.10.0.1/hooks",
    "https://localhost/hooks",
    "https://10.1.2.3/hooks",
    "https://172.16.0.5/hooks",
    "https://192.168.1.10/hooks",
    "https://169.254.169.254/latest/meta-data/",  # cloud metadata
    "https://[::1]/hooks",
    "https://[::ffff:127.0.0.1]/hooks",  # IPv4-mapped loopback
    "https://[::ffff:10.0.0.1]/hooks",
    "https://[fd00::1]/hooks",  # IPv6 unique local
    "https://[fe80::1]/hooks",  # IPv6 link-local
    "https://0.0.0.0/hooks",
    "https://224.0.0.1/hooks",  # multicast
    "https://240.0.0.1/hooks",  # reserved
    "https://100.64.0.1/hooks",  # carrier-grade NAT
    "https://198.18.0.1/hooks",  # benchmarking
    "https://192.0.2.1/hooks",  # documentation
    "https://192.88.99.1/hooks",  # 6to4 relay anycast (deprecated)
    "https://255.255.255.255/hooks",  # broadcast
    # IPv6 outside global unicast (2000::/3), which Python's is_global does not all refuse.
    "https://[::7f00:1]/hooks",  # IPv4-compatible (deprecated) 127.0.0.1
    "https://[::ffff:0:7f00:1]/hooks",  # IPv4-translated (SIIT) 127.0.0.1
    "https://[fec0::1]/hooks",  # site-local (deprecated)
    "https://[64:ff9b::a00:1]/hooks",  # NAT64 of 10.0.0.1
    "https://[100::1]/hooks",  # discard-only
    "https://[ff02::1]/hooks",  # multicast
    "https://[::]/hooks",  # unspecified
    # The special-purpose blocks inside 2000::/3.
    "https://[2001::1]/hooks",  # Teredo (embeds an IPv4 address)
    "https://[2001:2::1]/hooks",  # benchmarking
    "https://[2001:20::1]/hooks",  # ORCHIDv2
    "https://[2001:db8::1]/hooks",  # documentation
    "https://[2002:7f00:1::1]/hooks",  # 6to4 of 127.0.0.1
    "https://[3fff::1]/hooks",  # documentation (RFC 9637)
]


@pytest.mark.parametrize("url", REFUSED_URLS)
def test_internal_addresses_are_refused_before_connecting(url, monkeypatch):
    def no_connection(*args, **kwargs):
        raise AssertionError("a refused address must not be connected to")

    monkeypatch.setattr(socket, "create_connection", no_connection)
    monkeypatch.setattr(urllib3.util.connection, "create_connection", no_connection)
    with pytest.raises(http.UnsafeDestination):
        http.post_json(url, BODY, HEADERS)


def connections_recorded(monkeypatch) -> list:
    """Record the addresses connected to (and fail each connection: nothing leaves the
    machine)."""
    attempts = []

    def create_connection(address, *args, **kwargs):
        attempts.append(address[0])
        raise OSError("not connecting from tests")

    monkeypatch.setattr(urllib3.util.connection, "create_connection", create_connection)
    return attempts


@pytest.mark.parametrize(
    "address",
    ["8.8.8.8", "200.160.2.3", "[2606:4700::1111]", "[2804:14c::1]", "[2a00:1450:4001::1]"],
)
def test_global_unicast_addresses_are_connected_to(address, monkeypatch):
    attempts = connections_recorded(monkeypatch)
    with pytest.raises(requests.ConnectionError):
        http.post_json(f"https://{address}/hooks", BODY, HEADERS)
    assert attempts == [address.strip("[]")]


def test_the_exemption_also_covers_refused_ipv6_addresses(settings, monkeypatch):
    settings.WEBHOOKS_ALLOWED_NETWORKS = ["fec0::/10"]
    attempts = connections_recorded(monkeypatch)
    with pytest.raises(requests.ConnectionError):
        http.post_json("https://[fec0::1]/hooks", BODY, HEADERS)
    assert attempts == ["fec0::1"]
    with pytest.raises(http.UnsafeDestination):
        http.post_json("https://[::7f00:1]/hooks", BODY, HEADERS)


def resolving_to(address: str):
    """getaddrinfo that answers `address` for every name: a DNS record pointing inside."""
    real_getaddrinfo = socket.getaddrinfo

    def getaddrinfo(host, port, *args, **kwargs):
        return real_getaddrinfo(address, port, *args, **kwargs)

    return getaddrinfo


@pytest.mark.parametrize("address", ["127.0.0.1", "10.0.0.7", "169.254.169.254"])
def test_a_public_looking_name_resolving_inside_is_refused(address, monkeypatch):
    monkeypatch.setattr(socket, "getaddrinfo", resolving_to(address))
    with pytest.raises(http.UnsafeDestination):
        http.post_json("https://hooks.agency.example/in", BODY, HEADERS)


def test_the_probe_reports_a_refused_address_as_unreachable():
    with pytest.raises(http.Unreachable, match="private or reserved"):
        http.probe("https://192.168.0.1/hooks")


def test_an_exempted_network_is_reached_with_tls_verified(https_receiver):
    answer = http.post_json(https_receiver.url, BODY, {**HEADERS, "X-Check": "1"})

    assert answer.status_code == 200 and answer.excerpt == "ok"
    (request,) = https_receiver.requests
    assert request.body == BODY and request.headers["X-Check"] == "1"


def test_a_request_carries_the_session_headers_and_no_cookie_of_an_earlier_answer(https_receiver):
    """The headers the requests session sent (its defaults, our User-Agent), the caller's; and
    nothing an earlier answer set: a cookie is never sent back (two agencies may share a
    receiver's host)."""
    https_receiver.respond("/cookie", headers={"Set-Cookie": "session=abc; Path=/"})
    http.post_json(https_receiver.url_for("/cookie"), BODY, HEADERS)
    http.post_json(https_receiver.url_for("/cookie"), BODY, {**HEADERS, "X-Check": "2"})

    first, second = (request.headers for request in https_receiver.requests)
    for headers in (first, second):
        assert headers["User-Agent"] == http.USER_AGENT
        assert headers["Accept"] == "*/*" and headers["Connection"] == "keep-alive"
        assert "gzip" in headers["Accept-Encoding"]
        assert headers["Content-Type"] == "application/json"
        assert headers["Content-Length"] == str(len(BODY))
        assert "Cookie" not in headers
    assert second["X-Check"] == "2" and "X-Check" not in first


def test_credentials_in_the_url_are_sent_as_basic_authentication(https_receiver):
    url = https_receiver.url.replace("https://", "https://agency:s3cret@")
    http.post_json(url, BODY, HEADERS)

    (request,) = https_receiver.requests
    assert request.headers["Authorization"] == "Basic YWdlbmN5OnMzY3JldA=="


def test_the_exemption_is_exactly_the_configured_networks(https_receiver, settings):
    settings.WEBHOOKS_ALLOWED_NETWORKS = ["10.0.0.0/8"]
    with pytest.raises(http.UnsafeDestination):
        http.post_json(https_receiver.url, BODY, HEADERS)
    assert https_receiver.requests == []


def test_a_name_is_pinned_to_the_address_that_was_checked(https_receiver, monkeypatch):
    """The name resolves once, to the checked address; TLS is verified against the name."""
    lookups = []
    real_getaddrinfo = socket.getaddrinfo

    def getaddrinfo(host, port, *args, **kwargs):
        lookups.append(host)
        return real_getaddrinfo("127.0.0.1", port, *args, **kwargs)

    monkeypatch.setattr(socket, "getaddrinfo", getaddrinfo)
    url = https_receiver.url.replace("127.0.0.1", "localhost")

    assert http.post_json(url, BODY, HEADERS).status_code == 200
    # The name was resolved once; the connection then looked up only the address literal.
    assert lookups == ["localhost", "127.0.0.1"]
    assert https_receiver.requests[0].headers["Host"] == f"localhost:{https_receiver.port}"


def test_redirects_are_not_followed_even_to_an_allowed_address(https_receiver):
    https_receiver.respond("/moved", status=302, headers={"Location": "https://10.0.0.1/x"})

    answer = http.post_json(https_receiver.url_for("/moved"), BODY, HEADERS)

    assert answer.status_code == 302
    assert [r.path for r in https_receiver.requests] == ["/moved"]


def test_a_slow_answer_times_out(https_receiver, settings):
    settings.WEBHOOK_TIMEOUT_SECONDS = 0.3
    https_receiver.respond("/slow", delay=1.0)

    with pytest.raises(requests.Timeout):
        http.post_json(https_receiver.url_for("/slow"), BODY, HEADERS)
    with pytest.raises(http.Unreachable, match="No answer within"):
        http.probe(https_receiver.url_for("/slow"))


def test_an_answer_trickled_past_the_timeout_times_out(https_receiver, settings):
    """Each read is quick, the whole answer is not: the limit is on the whole attempt."""
    settings.WEBHOOK_TIMEOUT_SECONDS = 0.5
    https_receiver.respond("/trickle", body=b"x" * 20, trickle=0.1)

    started = time.monotonic()
    with pytest.raises(requests.Timeout):
        http.post_json(https_receiver.url_for("/trickle"), BODY, HEADERS)
    assert time.monotonic() - started < 1.5


def test_a_certificate_from_an_unknown_ca_is_refused(https_receiver, monkeypatch):
    monkeypatch.delenv("REQUESTS_CA_BUNDLE")  # the system CAs do not know the receiver's CA

    with pytest.raises(requests.exceptions.SSLError):
        http.post_json(https_receiver.url, BODY, HEADERS)
    with pytest.raises(http.Unreachable, match="TLS"):
        http.probe(https_receiver.url)
    assert https_receiver.requests == []


def test_only_an_excerpt_of_a_large_answer_is_kept(https_receiver):
    https_receiver.respond("/big", body=b"x" * (http.MAX_RESPONSE_BYTES * 3))

    answer = http.post_json(https_receiver.url_for("/big"), BODY, HEADERS)

    assert len(answer.excerpt) == http.MAX_RESPONSE_BYTES


def test_the_probe_accepts_any_http_answer(https_receiver):
    https_receiver.respond("/hooks", status=404)

    http.probe(https_receiver.url)  # a server answered: reachable, even with an error status

    (request,) = https_receiver.requests
    assert request.headers["X-Service-Probe"] == "1"
    assert orjson.loads(request.body) == {"type": "ping"}


def test_the_probe_reports_a_closed_port(https_receiver, settings):
    with socket.socket() as unused:
        unused.bind(("127.0.0.1", 0))
        port = unused.getsockname()[1]
    with pytest.raises(http.Unreachable, match="Could not connect"):
        http.probe(f"https://127.0.0.1:{port}/hooks")
