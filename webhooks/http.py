"""The one HTTP session that talks to agencies' webhook URLs.

Every request, delivery or probe, goes through requests-hardened: the host is resolved once, the
address is checked (only global unicast: see `is_global_unicast`) and the connection is pinned to
that address, so a name cannot resolve to a public
address for the check and to an internal one for the connection. Redirects are never followed
and TLS is always verified (`REQUESTS_CA_BUNDLE` names a custom CA, for tests and development).
`WEBHOOKS_ALLOWED_NETWORKS` exempts networks, for development and tests only.
"""

import ipaddress
import logging
import os
import time
from dataclasses import dataclass

import orjson
import requests
from django.conf import settings
from requests.adapters import HTTPAdapter
from requests_hardened import Config, HTTPSession
from requests_hardened.ip_filter import InvalidIPAddress
from requests_hardened.ip_filter_adapter import IPFilterAdapter

USER_AGENT = "AgencyBackOffice-Webhooks/1.0"

# What is kept of an answer: enough to debug an endpoint, never a whole page.
MAX_RESPONSE_BYTES = 64 * 1024


class UnsafeDestination(InvalidIPAddress):
    """The URL resolves to an address webhooks may not reach."""


class Unreachable(Exception):
    """A probe found no HTTPS server answering at the URL; `reason` says why."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


@dataclass(frozen=True)
class Answer:
    status_code: int
    excerpt: str


def _networks(*cidrs: str) -> tuple[ipaddress.IPv4Network | ipaddress.IPv6Network, ...]:
    return tuple(ipaddress.ip_network(cidr) for cidr in cidrs)


# IANA's IPv4 Special-Purpose Address Registry (RFC 6890 and updates), every block, plus
# multicast and the reserved 240/4: none of them hosts an agency's webhook receiver. The few the
# registry calls globally reachable (AS112 and AMT anycast, TURN and PCP anycast) are refused too.
_SPECIAL_IPV4 = _networks(
    "0.0.0.0/8",  # "this network"
    "10.0.0.0/8",  # private
    "100.64.0.0/10",  # carrier-grade NAT
    "127.0.0.0/8",  # loopback
    "169.254.0.0/16",  # link-local (cloud metadata)
    "172.16.0.0/12",  # private
    "192.0.0.0/24",  # IETF protocol assignments
    "192.0.2.0/24",  # documentation
    "192.31.196.0/24",  # AS112
    "192.52.193.0/24",  # AMT
    "192.88.99.0/24",  # 6to4 relay anycast (deprecated)
    "192.168.0.0/16",  # private
    "192.175.48.0/24",  # AS112 direct delegation
    "198.18.0.0/15",  # benchmarking
    "198.51.100.0/24",  # documentation
    "203.0.113.0/24",  # documentation
    "224.0.0.0/4",  # multicast
    "240.0.0.0/4",  # reserved, and the limited broadcast 255.255.255.255
)

# IPv6: only global unicast (2000::/3) is reachable; everything outside it is refused (IPv4-
# compatible ::a.b.c.d, IPv4-mapped and -translated, NAT64, site-local, unique local, link-local,
# discard, multicast…). Inside it, the blocks of IANA's IPv6 Special-Purpose Address Registry:
_SPECIAL_IPV6_UNICAST = _networks(
    "2001::/23",  # IETF protocol assignments: Teredo, benchmarking, AMT, AS112, ORCHID(v2), DETs
    "2001:db8::/32",  # documentation
    "2002::/16",  # 6to4: embeds an IPv4 address, relayed to it (deprecated, RFC 7526)
    "2620:4f:8000::/48",  # AS112 direct delegation
    "3fff::/20",  # documentation (RFC 9637)
)
_GLOBAL_UNICAST_IPV6 = ipaddress.ip_network("2000::/3")


def is_global_unicast(ip: ipaddress.IPv4Address | ipaddress.IPv6Address) -> bool:
    """Whether webhooks may connect to `ip`: a public unicast address, by an explicit list
    rather than Python's `is_global` (which, depending on the Python version, accepts deprecated
    and reserved IPv6 such as ::7f00:1, ::ffff:0:7f00:1 and fec0::1)."""
    if ip.version == 4:
        return not any(ip in network for network in _SPECIAL_IPV4)
    return ip in _GLOBAL_UNICAST_IPV6 and not any(ip in net for net in _SPECIAL_IPV6_UNICAST)


def _allowed_networks() -> list[ipaddress.IPv4Network | ipaddress.IPv6Network]:
    return [ipaddress.ip_network(cidr, strict=False) for cidr in settings.WEBHOOKS_ALLOWED_NETWORKS]


def _exempt(ip: ipaddress.IPv4Address | ipaddress.IPv6Address) -> bool:
    return any(ip in network for network in _allowed_networks())


class _QuietForExemptAddresses(logging.Filter):
    """requests-hardened warns of every refused address before we exempt it: keep the warnings
    that stand (a real refusal), drop those about exempted networks."""

    def filter(self, record: logging.LogRecord) -> bool:
        ip = getattr(record, "dst_ip", None)
        return ip is None or not _exempt(ip)


logging.getLogger("requests_hardened.ip_filter").addFilter(_QuietForExemptAddresses())


class _CheckedAddressAdapter(IPFilterAdapter):
    """requests-hardened's filter, plus the networks exempted by settings and a stricter rule:
    only global unicast addresses (`is_global_unicast`)."""

    def build_connection_pool_key_attributes(self, request, verify, cert=None):
        try:
            host_params, pool_kwargs = super().build_connection_pool_key_attributes(
                request, verify, cert
            )
        except InvalidIPAddress as refused:
            ip = ipaddress.ip_address(refused.args[0])
            if not _exempt(ip):
                raise UnsafeDestination(f"Refused address {ip}") from refused
            return self._pinned_to(ip, request, verify, cert)
        ip = ipaddress.ip_address(host_params["host"].strip("[]"))
        if not is_global_unicast(ip) and not _exempt(ip):
            raise UnsafeDestination(f"Refused address {ip}")
        return host_params, pool_kwargs

    def _pinned_to(self, ip, request, verify, cert):
        """What the parent does for an address it accepts: connect to the checked address,
        verify TLS against the URL's host name (the Host header is already set)."""
        host_params, pool_kwargs = HTTPAdapter.build_connection_pool_key_attributes(
            self, request, verify, cert
        )
        if self._is_https_proto:
            pool_kwargs["assert_hostname"] = host_params["host"]
            pool_kwargs["server_hostname"] = host_params["host"]
        host_params["host"] = str(ip) if ip.version == 4 else f"[{ip}]"
        return host_params, pool_kwargs


def _session() -> requests.Session:
    timeout = settings.WEBHOOK_TIMEOUT_SECONDS
    session = HTTPSession(
        Config(
            ip_filter_enable=True,
            ip_filter_allow_loopback_ips=False,
            never_redirect=True,
            default_timeout=(timeout, timeout),
            user_agent_override=USER_AGENT,
        )
    )
    session.trust_env = False  # no proxies from the environment: they would bypass the checks
    session.verify = os.environ.get("REQUESTS_CA_BUNDLE") or True
    for scheme, is_https in (("http://", False), ("https://", True)):
        session.mount(scheme, _CheckedAddressAdapter(is_https_proto=is_https))
    return session


def _read_excerpt(response: requests.Response, *, deadline: float) -> str:
    """Up to MAX_RESPONSE_BYTES of the body, read before `deadline` (time.monotonic()): the
    socket timeout bounds each read, not a body trickled a byte at a time."""
    received = b""
    # read1 returns whatever has arrived (iter_content would wait for a full chunk).
    while len(received) < MAX_RESPONSE_BYTES:
        chunk = response.raw.read1(8192, decode_content=True)
        if not chunk:
            break
        received += chunk
        if time.monotonic() > deadline:
            raise requests.Timeout("The answer took longer than the webhook timeout")
    return received[:MAX_RESPONSE_BYTES].decode("utf-8", errors="replace")


def post_json(url: str, body: bytes, headers: dict[str, str]) -> Answer:
    """POST a JSON body; raises UnsafeDestination, requests.Timeout, requests.SSLError or
    another requests.RequestException when no HTTP answer came back in time."""
    deadline = time.monotonic() + settings.WEBHOOK_TIMEOUT_SECONDS
    with _session() as session, session.post(url, data=body, headers=headers, stream=True) as r:
        excerpt = _read_excerpt(r, deadline=deadline)
        if time.monotonic() > deadline:  # the status line and headers came too slowly
            raise requests.Timeout("The answer took longer than the webhook timeout")
        return Answer(status_code=r.status_code, excerpt=excerpt)


def probe(url: str) -> None:
    """Check that an HTTPS server answers at the URL: DNS, the address rules, TLS and an HTTP
    answer (any status) within the timeout. Raises Unreachable with the reason."""
    body = orjson.dumps({"type": "ping"})
    headers = {"Content-Type": "application/json", "X-Service-Probe": "1"}
    try:
        post_json(url, body, headers)
    except UnsafeDestination as exc:
        raise Unreachable("The URL resolves to a private or reserved address") from exc
    except requests.Timeout as exc:
        raise Unreachable(f"No answer within {settings.WEBHOOK_TIMEOUT_SECONDS} s") from exc
    except requests.exceptions.SSLError as exc:
        raise Unreachable("TLS error: the certificate could not be verified") from exc
    except requests.ConnectionError as exc:
        raise Unreachable("Could not connect (DNS or connection refused)") from exc
    except requests.RequestException as exc:
        raise Unreachable(f"Request failed: {type(exc).__name__}") from exc
