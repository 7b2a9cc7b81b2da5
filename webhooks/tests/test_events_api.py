"""The events API (`GET /api/v1/events`, `GET /api/v1/events/:id`) and recovery
(`POST /api/v1/webhooks/:id/recover`): events read back exactly as they are delivered, scoped to
the key's team and mode, and missed events delivered again on request."""

from datetime import UTC, datetime, timedelta

import orjson
import pytest
import time_machine

from tests.kit.factories import SECRET, make_endpoint, record
from tests.kit.receiver import verify_signature
from webhooks.models import Delivery, Event, EventType
from webhooks.services import event_payload

pytestmark = pytest.mark.django_db

NOW = datetime(2026, 11, 20, 12, 0, tzinfo=UTC)
EVENTS = "/api/v1/events"


@pytest.fixture(autouse=True)
def clock():  # before the teams (and their api_key.created events) are made
    with time_machine.travel(NOW, tick=False) as traveller:
        yield traveller


@pytest.fixture(autouse=True)
def no_earlier_events(team, other_team):
    """Making the teams recorded their keys' api_key.created events: start from none."""
    Event.objects.all().delete()


def test_events_are_listed_newest_first_exactly_as_delivered(live_client, team, clock):
    first = record(team, type=EventType.WALLET_CREDIT)
    clock.shift(60)
    second = record(team, type=EventType.BOOKING_CREATED, data={"id": "ord_1"})

    response = live_client.get(EVENTS)

    assert response.status_code == 200
    assert response["Cache-Control"] == "no-store"
    body = response.json()
    assert body["success"] is True
    assert [e["id"] for e in body["data"]] == [second.id, first.id]
    delivered = orjson.loads(event_payload(second, webhook_id="wh_x", api_version=team.api_version))
    assert body["data"][0] == {**delivered, "webhook_id": None}
    assert body["pagination"] == {
        "page": 1,
        "limit": 20,
        "total": 2,
        "pages": 1,
        "has_more": False,
    }


def test_events_are_scoped_to_the_team_and_mode_of_the_key(
    live_client, test_client, team, other_team, clock
):
    live = record(team)
    test = record(team, live_mode=False)
    theirs = record(other_team)
    record(team, type=EventType.WEBHOOK_TEST)  # the panel's test events are not events

    assert [e["id"] for e in live_client.get(EVENTS).json()["data"]] == [live.id]
    assert [e["id"] for e in test_client.get(EVENTS).json()["data"]] == [test.id]
    for client, event in ((live_client, theirs), (live_client, test), (test_client, live)):
        missing = client.get(f"{EVENTS}/{event.id}")
        assert missing.status_code == 404
        assert missing.json()["error"] == {
            "code": "event_not_found",
            "message": "Event not found",
            "details": None,
            "request_id": missing["X-Request-Id"],
            "doc_url": "http://testserver/api/v1/docs/errors/event_not_found",
        }
    read = live_client.get(f"{EVENTS}/{live.id}")
    assert read.status_code == 200 and read.json()["data"]["id"] == live.id


def test_every_event_says_its_mode(live_client, test_client, team):
    live = record(team)
    test = record(team, live_mode=False)

    assert live_client.get(f"{EVENTS}/{live.id}").json()["data"]["live_mode"] is True
    assert test_client.get(f"{EVENTS}/{test.id}").json()["data"]["live_mode"] is False
    assert [e["live_mode"] for e in live_client.get(EVENTS).json()["data"]] == [True]
    assert [e["live_mode"] for e in test_client.get(EVENTS).json()["data"]] == [False]


def test_events_filter_by_type_and_time(live_client, team, clock):
    credit = record(team, type=EventType.WALLET_CREDIT)
    clock.shift(3600)
    debit = record(team, type=EventType.WALLET_DEBIT)
    clock.shift(3600)
    created = record(team, type=EventType.BOOKING_CREATED, data={"id": "ord_1"})

    def ids(query):
        response = live_client.get(EVENTS, query)
        assert response.status_code == 200, response.json()
        return [e["id"] for e in response.json()["data"]]

    assert ids({"type": "wallet.debit"}) == [debit.id]
    assert ids({"type": "wallet.credit,booking.created"}) == [created.id, credit.id]
    assert ids({"created_after": "2026-11-20T13:00:00Z"}) == [created.id, debit.id]
    assert ids({"created_before": "2026-11-20T13:00:00Z"}) == [credit.id]
    assert ids({"created_after": "2026-11-20T12:30:00-00:30"}) == [created.id, debit.id]


@pytest.mark.parametrize(
    ("query", "field"),
    [
        ({"type": "wallet.stolen"}, "type"),
        ({"type": "webhook.test"}, "type"),
        ({"created_after": "yesterday"}, "created_after"),
        ({"created_before": "2026-13-01T00:00:00Z"}, "created_before"),
        ({"page": "0"}, "page"),
    ],
)
def test_bad_event_filters_are_400(live_client, team, query, field):
    response = live_client.get(EVENTS, query)
    assert response.status_code == 400
    error = response.json()["error"]
    assert error["code"] == "invalid_request" and field in error["details"]


def test_events_older_than_the_retention_are_not_listed(live_client, team, clock, settings):
    old = record(team)
    clock.shift(timedelta(days=settings.EVENTS_RETENTION_DAYS, seconds=1))
    recent = record(team)

    assert [e["id"] for e in live_client.get(EVENTS).json()["data"]] == [recent.id]
    assert live_client.get(f"{EVENTS}/{old.id}").status_code == 200  # still readable by id


def test_api_answers_are_never_stored_by_caches(live_client, anon_client):
    assert live_client.get("/api/v1/wallet/balance")["Cache-Control"] == "no-store"
    assert anon_client.get("/api/v1/wallet/balance")["Cache-Control"] == "no-store"  # 401
    assert live_client.get("/api/v1/nothing-here")["Cache-Control"] == "no-store"  # 404
    assert "no-store" not in anon_client.get("/api/v1/schema").get("Cache-Control", "")


# --- Recovery ----------------------------------------------------------------------------------


def recover(client, endpoint, since):
    return client.post(f"/api/v1/webhooks/{endpoint.id}/recover", {"since": since}, format="json")


def test_recover_delivers_events_missed_while_disabled(
    live_client, team, other_team, clock, https_receiver, django_capture_on_commit_callbacks
):
    endpoint = make_endpoint(team, https_receiver.url, events=["wallet.credit", "booking.created"])
    before = record(team)  # delivered at the time (its delivery row exists)
    Delivery.objects.update(status="succeeded")
    endpoint.active = False
    endpoint.save()
    clock.shift(600)
    missed = [record(team), record(team, type=EventType.BOOKING_CREATED)]
    record(team, type=EventType.WALLET_DEBIT)  # not subscribed
    record(other_team)  # another team's
    record(team, live_mode=False)  # the other mode
    assert not Delivery.objects.filter(event__in=missed).exists()  # disabled: no delivery

    refused = recover(live_client, endpoint, "2026-11-20T12:00:00Z")
    assert refused.status_code == 409
    assert refused.json()["error"]["code"] == "webhook_inactive"

    endpoint.active = True
    endpoint.save()
    with django_capture_on_commit_callbacks(execute=True):
        response = recover(live_client, endpoint, "2026-11-20T12:00:00Z")

    assert response.status_code == 202, response.json()
    assert response.json()["data"] == {
        "id": endpoint.id,
        "since": "2026-11-20T12:00:00.000Z",
        "queued": 3,
    }
    received = sorted(orjson.loads(r.body)["id"] for r in https_receiver.requests)
    assert received == sorted([before.id, *(e.id for e in missed)])
    assert all(verify_signature(SECRET, r.headers, r.body) for r in https_receiver.requests)
    assert Delivery.objects.filter(endpoint=endpoint, status="succeeded").count() == 3


def test_recover_since_a_moment_leaves_older_events_alone(live_client, team, clock):
    endpoint = make_endpoint(team, "https://hooks.example.com/x")
    old = record(team)
    clock.shift(3600)
    new = record(team)
    Delivery.objects.update(status="succeeded", attempt_count=1)

    response = recover(live_client, endpoint, "2026-11-20T12:30:00Z")

    assert response.json()["data"]["queued"] == 1
    redone = Delivery.objects.get(event=new)
    assert redone.status == "pending" and redone.attempt_count == 0
    assert Delivery.objects.get(event=old).status == "succeeded"


@pytest.mark.parametrize(
    "since",
    ["", "not a time", "2026-11-20T12:00:01Z", "2026-10-21T11:59:59Z"],
    ids=["missing", "unreadable", "future", "older-than-retention"],
)
def test_recover_refuses_bad_moments(live_client, team, clock, since):
    endpoint = make_endpoint(team, "https://hooks.example.com/x")
    response = recover(live_client, endpoint, since)
    assert response.status_code == 400
    assert "since" in response.json()["error"]["details"]


def test_recover_another_teams_webhook_is_404(live_client, test_client, other_team, team):
    theirs = make_endpoint(other_team, "https://hooks.example.com/theirs")
    test_mode = make_endpoint(team, "https://hooks.example.com/test", live_mode=False)
    for client, endpoint in ((live_client, theirs), (live_client, test_mode)):
        response = recover(client, endpoint, "2026-11-20T12:00:00Z")
        assert response.status_code == 404
        assert response.json()["error"]["code"] == "webhook_not_found"
    assert recover(test_client, test_mode, "2026-11-20T11:00:00Z").status_code == 202


def test_recover_leaves_a_delivery_being_sent_right_now_alone(live_client, team, clock):
    from webhooks.services.deliveries import delivery_claim

    endpoint = make_endpoint(team, "https://hooks.example.com/in", events=["wallet.credit"])
    record(team)
    claimed = delivery_claim(Delivery.objects.get().id)
    assert claimed is not None and claimed.in_flight

    response = recover(live_client, endpoint, "2026-11-20T12:00:00Z")

    assert response.status_code == 202
    after = Delivery.objects.get()
    assert (after.lease_id, after.in_flight) == (claimed.lease_id, True)


# --- Order and cursors -------------------------------------------------------------------------


def five_events(team, clock) -> list[Event]:
    """Five events a minute apart, oldest first."""
    events = []
    for _ in range(5):
        events.append(record(team))
        clock.shift(60)
    return events


def test_order_asc_lists_oldest_first_and_pages_say_has_more(live_client, team, clock):
    events = five_events(team, clock)

    first = live_client.get(EVENTS, {"order": "asc", "limit": 2}).json()
    last = live_client.get(EVENTS, {"order": "asc", "limit": 2, "page": 3}).json()

    assert [e["id"] for e in first["data"]] == [e.id for e in events[:2]]
    assert first["pagination"] == {"page": 1, "limit": 2, "total": 5, "pages": 3, "has_more": True}
    assert [e["id"] for e in last["data"]] == [events[4].id]
    assert last["pagination"]["has_more"] is False


def test_starting_after_reads_on_page_by_page_in_either_order(live_client, team, clock):
    events = five_events(team, clock)
    ids = [e.id for e in events]

    def walk(order):
        read, cursor, pages = [], {}, []
        while True:
            body = live_client.get(EVENTS, {"order": order, "limit": 2, **cursor}).json()
            read += [e["id"] for e in body["data"]]
            pages.append(body["pagination"])
            if not body["pagination"]["has_more"]:
                return read, pages
            cursor = {"starting_after": read[-1]}

    assert walk("asc") == (
        ids,
        [
            {"page": 1, "limit": 2, "total": 5, "pages": 3, "has_more": True},
            {"limit": 2, "has_more": True},  # a cursor's page: no count
            {"limit": 2, "has_more": False},
        ],
    )
    assert walk("desc")[0] == ids[::-1]


def test_ending_before_reads_the_nearest_earlier_events_in_the_lists_order(
    live_client, team, clock
):
    ids = [e.id for e in five_events(team, clock)]

    def page(**query):
        body = live_client.get(EVENTS, {"limit": 2, **query}).json()
        return [e["id"] for e in body["data"]], body["pagination"]["has_more"]

    # Newest first: the events newer than ids[1] are ids[2..4]; the nearest two, newest first.
    assert page(ending_before=ids[1]) == ([ids[3], ids[2]], True)
    assert page(ending_before=ids[3]) == ([ids[4]], False)
    # Oldest first: the events older than ids[3].
    assert page(ending_before=ids[3], order="asc") == ([ids[1], ids[2]], True)
    assert page(ending_before=ids[0], order="asc") == ([], False)


def test_a_catch_up_sees_the_events_recorded_while_it_pages(live_client, team, clock):
    ids = [e.id for e in five_events(team, clock)]
    body = live_client.get(EVENTS, {"order": "asc", "limit": 5}).json()
    assert [e["id"] for e in body["data"]] == ids and body["pagination"]["has_more"] is False

    later = [record(team).id]
    clock.shift(1)
    later.append(record(team, type=EventType.BOOKING_CREATED, data={"id": "ord_1"}).id)
    record(team, live_mode=False)  # the other mode's: not in this list

    after = live_client.get(EVENTS, {"order": "asc", "starting_after": ids[-1]}).json()
    assert [e["id"] for e in after["data"]] == later
    assert after["pagination"] == {"limit": 20, "has_more": False}


def test_cursors_combine_with_the_filters(live_client, team, clock):
    credit = record(team)
    clock.shift(60)
    record(team, type=EventType.WALLET_DEBIT)
    clock.shift(60)
    later_credit = record(team)

    body = live_client.get(
        EVENTS, {"order": "asc", "type": "wallet.credit", "starting_after": credit.id}
    ).json()
    assert [e["id"] for e in body["data"]] == [later_credit.id]


@pytest.mark.parametrize(
    ("query", "field", "message"),
    [
        ({"starting_after": "evt_unknown"}, "starting_after", "No such event"),
        ({"ending_before": "evt_unknown"}, "ending_before", "No such event"),
        ({"starting_after": "x" * 41}, "starting_after", "Ensure this field"),
        ({"starting_after": "A", "ending_before": "A"}, "ending_before", "Cannot be combined"),
        ({"starting_after": "A", "page": "1"}, "page", "Cannot be combined"),
        ({"order": "newest"}, "order", "not a valid choice"),
        ({"order": ""}, "order", "May not be blank"),
    ],
)
def test_bad_cursors_are_400(live_client, team, query, field, message):
    event = record(team)
    query = {name: event.id if value == "A" else value for name, value in query.items()}
    response = live_client.get(EVENTS, query)
    assert response.status_code == 400
    error = response.json()["error"]
    assert error["code"] == "invalid_request"
    assert message in error["details"][field][0], error["details"]


def test_a_cursor_of_another_team_or_mode_is_unknown(live_client, team, other_team):
    for event in (record(other_team), record(team, live_mode=False)):
        response = live_client.get(EVENTS, {"starting_after": event.id})
        assert response.status_code == 400
        assert response.json()["error"]["details"] == {
            "starting_after": ["No such event for this key's team and mode."]
        }
