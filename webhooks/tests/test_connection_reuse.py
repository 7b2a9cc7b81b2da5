"""Kept-alive connections (webhooks/http.py): reused between requests to the same checked
address, never in place of the address check of the request at hand, and never the cause of a
lost or double-counted attempt when the server closes them. Against the real HTTPS receiver;
the receiver tells connections apart by their client port."""

import socket
import time

import orjson
import pytest
import requests

from tests.kit.factories import make_endpoint, record
from webhooks import http
from webhooks.models import Delivery
from webhooks.services import delivery_attempt

BODY = orjson.dumps({"type": "ping"})
HEADERS = {"Content-Type": "application/json"}


def resolving(monkeypatch, addresses: dict[str, str]):
    """getaddrinfo answering `addresses[name]` for the names given (a DNS we control); the
    dict can be changed between requests, as a DNS record can."""
    real_getaddrinfo = socket.getaddrinfo

    def getaddrinfo(host, port, *args, **kwargs):
        return real_getaddrinfo(addresses.get(host, host), port, *args, **kwargs)

    monkeypatch.setattr(socket, "getaddrinfo", getaddrinfo)


def wait_until(condition, timeout: float = 5.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "condition not met in time"
        time.sleep(0.01)


def test_requests_to_one_address_share_one_connection(https_receiver):
    for _ in range(3):
        assert http.post_json(https_receiver.url, BODY, HEADERS).status_code == 200

    ports = https_receiver.connection_ports()
    assert len(ports) == 3 and len(set(ports)) == 1


def test_a_pooled_connection_does_not_spare_the_address_check(
    https_receiver, settings, monkeypatch
):
    """The name now resolves to an internal address: refused, though a connection to the
    address it resolved to before is open and idle."""
    settings.WEBHOOKS_ALLOWED_NETWORKS = ["127.0.0.1/32"]
    dns = {"localhost": "127.0.0.1"}
    resolving(monkeypatch, dns)
    url = https_receiver.url.replace("127.0.0.1", "localhost")
    assert http.post_json(url, BODY, HEADERS).status_code == 200

    dns["localhost"] = "10.0.0.7"
    with pytest.raises(http.UnsafeDestination):
        http.post_json(url, BODY, HEADERS)

    dns["localhost"] = "127.0.0.1"
    settings.WEBHOOKS_ALLOWED_NETWORKS = ["10.0.0.0/8"]  # the exemption withdrawn
    with pytest.raises(http.UnsafeDestination):
        http.post_json(url, BODY, HEADERS)
    assert len(https_receiver.requests) == 1


def test_a_connection_is_only_reused_for_the_address_it_goes_to(
    https_receiver, settings, monkeypatch
):
    """The name moves to another allowed address: a new connection goes there (nothing
    listens on 127.0.0.2), the one to the old address is not used for it."""
    settings.WEBHOOKS_ALLOWED_NETWORKS = ["127.0.0.0/8"]
    dns = {"localhost": "127.0.0.1"}
    resolving(monkeypatch, dns)
    url = https_receiver.url.replace("127.0.0.1", "localhost")
    assert http.post_json(url, BODY, HEADERS).status_code == 200

    dns["localhost"] = "127.0.0.2"
    with pytest.raises(requests.ConnectionError):
        http.post_json(url, BODY, HEADERS)

    dns["localhost"] = "127.0.0.1"
    assert http.post_json(url, BODY, HEADERS).status_code == 200
    ports = https_receiver.connection_ports()
    assert len(ports) == 2 and ports[0] == ports[1]  # the old connection, for the old address


def test_connections_verified_by_name_are_not_shared_between_names(https_receiver, monkeypatch):
    """The same address under two names: TLS was verified for one name, so the other gets
    its own connection."""
    resolving(monkeypatch, {"localhost": "127.0.0.1"})
    assert http.post_json(https_receiver.url, BODY, HEADERS).status_code == 200
    url = https_receiver.url.replace("127.0.0.1", "localhost")
    assert http.post_json(url, BODY, HEADERS).status_code == 200

    ports = https_receiver.connection_ports()
    assert ports[0] != ports[1]
    assert https_receiver.requests[1].headers["Host"] == f"localhost:{https_receiver.port}"


def test_a_connection_the_server_closed_while_idle_is_replaced(https_receiver):
    assert http.post_json(https_receiver.url, BODY, HEADERS).status_code == 200
    https_receiver.close_idle_connections()
    wait_until(lambda: not https_receiver._connections)

    assert http.post_json(https_receiver.url, BODY, HEADERS).status_code == 200

    ports = https_receiver.connection_ports()
    assert len(ports) == 2 and ports[0] != ports[1]  # sent once, on a new connection


def test_a_connection_idle_too_long_is_not_reused(https_receiver, monkeypatch):
    monkeypatch.setattr(http, "MAX_IDLE_SECONDS", 0.0)
    assert http.post_json(https_receiver.url, BODY, HEADERS).status_code == 200
    assert http.post_json(https_receiver.url, BODY, HEADERS).status_code == 200

    ports = https_receiver.connection_ports()
    assert len(ports) == 2 and ports[0] != ports[1]


def test_a_reused_connection_closed_with_no_answer_is_replaced_once(https_receiver):
    """The server closed the kept-alive connection as the request was written: the request
    goes once more, on a new connection."""
    assert http.post_json(https_receiver.url, BODY, HEADERS).status_code == 200
    https_receiver.drop_next("/hooks")

    assert http.post_json(https_receiver.url, BODY, HEADERS).status_code == 200

    first, dropped, resent = https_receiver.connection_ports()
    assert dropped == first and resent != first


def test_a_new_connection_closed_with_no_answer_is_not_sent_again(https_receiver):
    https_receiver.drop_next("/hooks")

    with pytest.raises(requests.ConnectionError):
        http.post_json(https_receiver.url, BODY, HEADERS)
    assert len(https_receiver.requests) == 1


def test_the_request_is_sent_at_most_twice(https_receiver):
    """The new connection is closed with no answer too: that is the outcome."""
    assert http.post_json(https_receiver.url, BODY, HEADERS).status_code == 200
    https_receiver.drop_next("/hooks", count=5)

    with pytest.raises(requests.ConnectionError):
        http.post_json(https_receiver.url, BODY, HEADERS)
    assert len(https_receiver.requests) == 3  # the first, then the dropped one sent twice


def test_an_answer_cut_to_its_excerpt_closes_its_connection(https_receiver):
    https_receiver.respond("/big", body=b"x" * (http.MAX_RESPONSE_BYTES * 3))
    http.post_json(https_receiver.url_for("/big"), BODY, HEADERS)
    assert http.post_json(https_receiver.url, BODY, HEADERS).status_code == 200

    ports = https_receiver.connection_ports()
    assert ports[0] != ports[1]  # the unread rest of the answer never reaches the next request


def test_a_timed_out_answer_closes_its_connection(https_receiver, settings):
    settings.WEBHOOK_TIMEOUT_SECONDS = 0.3
    https_receiver.respond("/slow", delay=0.6)
    with pytest.raises(requests.Timeout):
        http.post_json(https_receiver.url_for("/slow"), BODY, HEADERS)

    assert http.post_json(https_receiver.url, BODY, HEADERS).status_code == 200
    ports = https_receiver.connection_ports()
    assert ports[0] != ports[1]


# --- Deliveries: a dropped kept-alive connection is one attempt, counted once ---


def one_delivery(team) -> int:
    record(team)
    return Delivery.objects.order_by("-pk").values_list("pk", flat=True)[0]


@pytest.mark.django_db
def test_a_delivery_on_a_connection_the_server_dropped_is_one_successful_attempt(
    team, https_receiver
):
    endpoint = make_endpoint(team, https_receiver.url)
    assert delivery_attempt(one_delivery(team)).succeeded  # the connection is kept
    https_receiver.drop_next("/hooks")

    attempt = delivery_attempt(one_delivery(team))

    assert attempt is not None and attempt.succeeded and attempt.number == 1
    assert attempt.delivery.attempts.count() == 1
    endpoint.refresh_from_db()
    assert endpoint.total_deliveries == 2 and endpoint.failed_deliveries == 0
    assert endpoint.consecutive_failures == 0
    assert len(https_receiver.requests) == 3


@pytest.mark.django_db
def test_a_delivery_dropped_on_both_connections_is_one_failed_attempt(team, https_receiver):
    endpoint = make_endpoint(team, https_receiver.url)
    assert delivery_attempt(one_delivery(team)).succeeded
    https_receiver.drop_next("/hooks", count=2)

    attempt = delivery_attempt(one_delivery(team))

    assert attempt is not None and not attempt.succeeded
    assert attempt.error == "Connection failed: ConnectionError"
    delivery = attempt.delivery
    delivery.refresh_from_db()
    assert delivery.attempt_count == 1 and delivery.attempts.count() == 1
    assert delivery.status == "pending" and delivery.next_attempt_at is not None  # retried
    endpoint.refresh_from_db()
    assert endpoint.total_deliveries == 2 and endpoint.failed_deliveries == 1
    assert endpoint.consecutive_failures == 1


def kept_alive() -> int:
    """Open connections this process keeps for reuse."""
    count = 0
    for adapter in http._shared_session().adapters.values():
        pools = adapter.poolmanager.pools  # type: ignore[attr-defined]
        for key in pools.keys():  # noqa: SIM118 - urllib3 forbids iterating the container
            idle = list(pools[key].pool.queue)
            count += sum(1 for conn in idle if conn is not None and not conn.is_closed)
    return count


def test_a_body_sent_with_a_204_does_not_reach_the_next_answer(https_receiver):
    """The receiver answers 204 with a body (its Content-Length says 2): HTTP says a 204 has
    none, so those bytes would be read as the start of the next answer on the connection."""
    https_receiver.respond("/hooks", status=204)
    assert http.post_json(https_receiver.url, BODY, HEADERS).status_code == 204
    assert kept_alive() == 0
    assert http.post_json(https_receiver.url, BODY, HEADERS).status_code == 204

    ports = https_receiver.connection_ports()
    assert ports[0] != ports[1]


def test_an_empty_204_keeps_its_connection(https_receiver):
    https_receiver.respond("/hooks", status=204, body=b"")
    assert http.post_json(https_receiver.url, BODY, HEADERS).status_code == 204
    assert kept_alive() == 1
    assert http.post_json(https_receiver.url, BODY, HEADERS).status_code == 204

    assert len(set(https_receiver.connection_ports())) == 1
