"""The one HTTP session that talks to agencies' webhook URLs.

Every request, delivery or probe, goes through requests-hardened: the host is resolved once, the
address is checked (no loopback, private, link-local, multicast, reserved or IPv4-mapped private
address) and the connection is pinned to that address, so a name cannot resolve to a public
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
    only globally routable addresses (which also refuses reserved and unspecified ones)."""

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
        if not ip.is_global and not _exempt(ip):
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
            user_agent_override="AgencyBackOffice-Webhooks/1.0",
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
