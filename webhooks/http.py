"""The one HTTP session that talks to agencies' webhook URLs.

Every request, delivery or probe, goes through requests-hardened: the host is resolved once, the
address is checked (only global unicast: see `is_global_unicast`) and the connection is pinned to
that address, so a name cannot resolve to a public
address for the check and to an internal one for the connection. Redirects are never followed
and TLS is always verified (`REQUESTS_CA_BUNDLE` names a custom CA, for tests and development).
`WEBHOOKS_ALLOWED_NETWORKS` exempts networks, for development and tests only.

Connections are kept alive and reused, per process (`_shared_session`: one session whose
urllib3 pools the delivery pool's threads share; urllib3's pools are thread-safe, each request
takes a connection of its own from them), but only under the checks of the request at hand:
every request resolves and checks its address first, and urllib3 files pooled connections
under the checked address, port, TLS server name and CA bundle, so a pooled connection is only
ever reused for a request that has just been checked to that same address (a name that now
resolves inside is refused before any pool is looked at). A connection the server has closed
is dropped when taken from the pool; one found closed only when the request is written (the
server closed it at that moment) is replaced by a new
connection and the request sent once more (`_KeptAlivePool.urlopen`).
"""

import functools
import http.client
import ipaddress
import logging
import os
import queue
import ssl
import threading
import time
from dataclasses import dataclass

import orjson
import requests
from django.conf import settings
from requests.adapters import HTTPAdapter
from requests_hardened import Config, HTTPSession
from requests_hardened.ip_filter import InvalidIPAddress
from requests_hardened.ip_filter_adapter import IPFilterAdapter
from urllib3.connectionpool import HTTPConnectionPool, HTTPSConnectionPool
from urllib3.exceptions import MaxRetryError, ProtocolError

logger = logging.getLogger(__name__)

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


@functools.lru_cache(maxsize=4096)  # a pure function of the address, asked for every request
def is_global_unicast(ip: ipaddress.IPv4Address | ipaddress.IPv6Address) -> bool:
    """Whether webhooks may connect to `ip`: a public unicast address, by an explicit list
    rather than Python's `is_global` (which, depending on the Python version, accepts deprecated
    and reserved IPv6 such as ::7f00:1, ::ffff:0:7f00:1 and fec0::1)."""
    if ip.version == 4:
        return not any(ip in network for network in _SPECIAL_IPV4)
    return ip in _GLOBAL_UNICAST_IPV6 and not any(ip in net for net in _SPECIAL_IPV6_UNICAST)


@functools.lru_cache(maxsize=8)
def _parsed_networks(
    cidrs: tuple[str, ...],
) -> tuple[ipaddress.IPv4Network | ipaddress.IPv6Network, ...]:
    return tuple(ipaddress.ip_network(cidr, strict=False) for cidr in cidrs)


def _exempt(ip: ipaddress.IPv4Address | ipaddress.IPv6Address) -> bool:
    # The setting is read for each request (tests change it); each answer is kept per value.
    return _exempt_from(ip, tuple(settings.WEBHOOKS_ALLOWED_NETWORKS))


@functools.lru_cache(maxsize=4096)
def _exempt_from(ip: ipaddress.IPv4Address | ipaddress.IPv6Address, cidrs: tuple[str, ...]) -> bool:
    return any(ip in network for network in _parsed_networks(cidrs))


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


# A kept-alive connection idle longer than this is closed rather than reused: servers commonly
# drop idle connections after 5 s (Node, Apache), and a request written just as they do fails.
MAX_IDLE_SECONDS = 4.0

# What a connection closed by the server looks like to the request written on it.
_CLOSED_BY_SERVER = (
    ConnectionResetError,  # includes http.client.RemoteDisconnected
    BrokenPipeError,
    ConnectionAbortedError,
    http.client.RemoteDisconnected,
    ssl.SSLEOFError,
    ssl.SSLZeroReturnError,
)


def _closed_by_server(error: BaseException) -> bool:
    """Whether `error` (urllib3's, wrapping the socket's) says the connection was closed or
    reset with no answer at all: not a timeout, not a TLS verification failure."""
    seen: BaseException | None = error
    for _ in range(5):  # ProtocolError/MaxRetryError -> SSLError -> the socket's error
        if seen is None:
            return False
        if isinstance(seen, _CLOSED_BY_SERVER):
            return True
        reason = getattr(seen, "reason", None)
        nested = seen.args[-1] if seen.args else None
        seen = reason or (nested if isinstance(nested, BaseException) else seen.__context__)
    return False


class _KeptAlivePoolMixin:
    """A urllib3 pool that knows whether the connection it hands out was reused, closes those
    idle too long, and sends a request once more, on a new connection, when a reused one turns
    out closed by the server before any answer (the one case where keeping connections alive
    could fail an attempt that a new connection would not have)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._handed_out = threading.local()

    def _get_conn(self, timeout=None):
        conn = super()._get_conn(timeout)  # drops connections seen closed
        idle_since = getattr(conn, "idle_since", None)
        if idle_since is not None and time.monotonic() - idle_since > MAX_IDLE_SECONDS:
            conn.close()
        self._handed_out.reused = not conn.is_closed  # is_closed: no socket, a new connection
        return conn

    def _put_conn(self, conn):
        if conn is not None:
            conn.idle_since = time.monotonic()
        super()._put_conn(conn)

    def urlopen(self, method, url, *args, **kwargs):
        try:
            return super().urlopen(method, url, *args, **kwargs)
        except (ProtocolError, MaxRetryError) as error:
            if not (getattr(self._handed_out, "reused", False) and _closed_by_server(error)):
                raise
        # The other idle connections are as old: none of them is tried. The request goes once
        # more, on a new connection; whatever that one meets is the attempt's outcome.
        self._close_idle()
        logger.info("Kept-alive connection to %s closed by the server; sending again", self.host)
        return super().urlopen(method, url, *args, **kwargs)

    def _close_idle(self) -> None:
        idle = self.pool  # type: ignore[attr-defined]  # a LifoQueue of connections and Nones
        for _ in range(idle.qsize()):
            try:
                conn = idle.get(block=False)
            except queue.Empty:
                return
            if conn is not None:
                conn.close()  # the object stays, without its socket: it connects anew
            idle.put(conn, block=False)


class _KeptAliveHTTPSPool(_KeptAlivePoolMixin, HTTPSConnectionPool):
    pass


class _KeptAliveHTTPPool(_KeptAlivePoolMixin, HTTPConnectionPool):
    pass


# Per process: receiver addresses whose pools are kept (the least recently used one's idle
# connections are closed beyond this), and idle connections kept per address (at least one per
# delivery thread, so that a connection handed back is not dropped as the pool overflows).
POOLS_PER_PROCESS = 100
MIN_CONNECTIONS_PER_ADDRESS = 10


def _session() -> requests.Session:
    session = HTTPSession(
        Config(
            ip_filter_enable=True,
            ip_filter_allow_loopback_ips=False,
            never_redirect=True,
            default_timeout=(10, 10),  # every request passes the setting's own (post_json)
            user_agent_override=USER_AGENT,
        )
    )
    session.trust_env = False  # no proxies from the environment: they would bypass the checks
    per_address = max(MIN_CONNECTIONS_PER_ADDRESS, settings.WEBHOOK_DELIVERY_THREADS)
    for scheme, is_https in (("http://", False), ("https://", True)):
        adapter = _CheckedAddressAdapter(is_https_proto=is_https)
        # Never blocks: a request finding no idle connection opens one.
        adapter.init_poolmanager(POOLS_PER_PROCESS, per_address, block=False)
        adapter.poolmanager.pool_classes_by_scheme = {
            "http": _KeptAliveHTTPPool,
            "https": _KeptAliveHTTPSPool,
        }
        session.mount(scheme, adapter)
    return session


_process_session: requests.Session | None = None
_session_pid = 0
_session_lock = threading.Lock()


def _shared_session() -> requests.Session:
    """This process's session, shared by its threads: its pools keep connections alive between
    deliveries. A forked child (a prefork worker) starts its own: sockets are never shared
    between processes."""
    global _process_session, _session_pid
    session = _process_session
    if session is not None and _session_pid == os.getpid():
        return session
    with _session_lock:
        if _process_session is None or _session_pid != os.getpid():
            _process_session = _session()
            _session_pid = os.getpid()
        return _process_session


def _new_lock_after_fork() -> None:
    global _session_lock
    _session_lock = threading.Lock()  # a parent's thread may have held it at the fork


os.register_at_fork(after_in_child=_new_lock_after_fork)


def close_connections() -> None:
    """Close this process's kept-alive connections (tests; a worker shutting down)."""
    global _process_session
    with _session_lock:
        session, _process_session = _process_session, None
    if session is not None and _session_pid == os.getpid():
        session.close()


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


# Statuses whose answers never have a body (RFC 9110), whatever their headers say.
_NO_BODY_STATUSES = frozenset({204, 304})


def _announces_body(headers) -> bool:
    return "Transfer-Encoding" in headers or headers.get("Content-Length", "0").strip() != "0"


# What the session sent with every request besides the caller's headers (requests' defaults,
# requests-hardened's User-Agent).
_SESSION_HEADERS = {**requests.utils.default_headers(), "User-Agent": USER_AGENT}


def _prepared(url: str, body: bytes, headers: dict[str, str]) -> requests.PreparedRequest:
    """The request `Session.post` would prepare, without the session's merging: no cookies
    (none are kept), no hooks, no environment (`trust_env` is off). The URL's part (parsed,
    IDNA-encoded, its credentials as a Basic header) is prepared once per URL (`_prepared_url`);
    each request is a copy of it with its own headers and body. The headers are the caller's
    own (the signature's hex, digits, an event id), not a client's input."""
    request = _prepared_url(url).copy()
    request.headers.update(headers)
    request.prepare_body(body, None)
    return request


@functools.lru_cache(maxsize=1024)
def _prepared_url(url: str) -> requests.PreparedRequest:
    """A POST to `url` with the session's headers and no body yet: never sent itself (each
    request is a copy), so never changed once made."""
    request = requests.PreparedRequest()
    request.prepare_method("POST")
    request.prepare_url(url, None)
    request.prepare_headers(_SESSION_HEADERS)
    request.prepare_auth(None, url)  # credentials in the URL, as the session would send them
    return request


def post_json(url: str, body: bytes, headers: dict[str, str]) -> Answer:
    """POST a JSON body; raises UnsafeDestination, requests.Timeout, requests.SSLError or
    another requests.RequestException when no HTTP answer came back in time."""
    timeout = settings.WEBHOOK_TIMEOUT_SECONDS
    deadline = time.monotonic() + timeout
    # Timeout and CA bundle are read for each request (settings and environment can change);
    # the CA bundle is part of the pool's key, so a connection verified against one bundle is
    # never reused under another.
    verify = os.environ.get("REQUESTS_CA_BUNDLE") or True
    request = _prepared(url, body, headers)
    # Straight to the session's adapter, which resolves and checks the address of every
    # request (`_CheckedAddressAdapter`) and never follows a redirect: the session's own
    # send would only merge settings that are fixed here (no proxies, no environment, no
    # hooks) and keep cookies between deliveries, which a webhook has no use for.
    adapter = _shared_session().get_adapter(url)
    # A body read to its end hands the connection back to the pool; one cut short (an excerpt,
    # a timeout, an error) is closed with the response.
    with adapter.send(
        request, stream=True, timeout=(timeout, timeout), verify=verify, cert=None, proxies={}
    ) as r:
        if r.status_code in _NO_BODY_STATUSES and _announces_body(r.headers):
            # A body where HTTP allows none: it is not read as part of this answer, so it
            # would be taken for the start of the next one. The connection is not reused.
            r.raw.close()
            excerpt = ""
        else:
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
