"""The API request log (docs/request-log.md): every /api/ request is a row with what was asked
and answered (never a body or a query string), written by the process's flusher without adding
a round trip to the request, purged after API_REQUEST_LOG_DAYS, and shown to the team's users
in the panel."""

import threading
import time
from datetime import timedelta

import orjson
import pytest
from django.db import connection
from django.test import Client as BrowserClient
from django.test import override_settings
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone
from rest_framework.test import APIClient

from agencies.models import ApiKey, ApiRequest
from agencies.request_log import (
    request_log_discard,
    request_log_flush,
    request_log_purge,
    request_log_stop,
)
from agencies.tasks import purge_api_request_log
from agencies.tests.factories import SupportUserFactory
from tests.kit.marks import needs_postgresql
from tests.kit.panel import browser_for
from tests.kit.stack import Stack, needs_real_stack, wait_until

pytestmark = pytest.mark.django_db

BALANCE = "/api/v1/wallet/balance"
BOOKINGS = "/api/v1/bookings"
CHANGELIST = "/admin/agencies/apirequest/"


@pytest.fixture(autouse=True)
def _empty_buffer():
    request_log_discard()  # what earlier tests' requests left waiting in this process
    yield
    request_log_discard()


def recorded() -> list[ApiRequest]:
    request_log_flush()
    return list(ApiRequest.objects.order_by("id"))


def only_row() -> ApiRequest:
    [row] = recorded()
    return row


# --- What is recorded ---


def test_a_200_is_recorded_with_its_key_mode_and_request_id(live_client, team):
    response = live_client.get(f"{BALANCE}?q=Maria+Silva&cpf=12345678909")
    assert response.status_code == 200
    row = only_row()
    key = ApiKey.objects.get(team=team, live_mode=True)
    assert (row.method, row.path, row.status, row.error_code) == ("GET", BALANCE, 200, "")
    assert (row.team_id, row.api_key_id, row.live_mode) == (team.pk, key.pk, True)
    assert row.request_id == response["X-Request-Id"] and len(row.request_id) == 32
    assert 0 <= row.latency_ms < 10_000
    assert abs(timezone.now() - row.created_at) < timedelta(minutes=1)


def test_a_400_is_recorded_with_its_error_code_and_no_body(test_client, team):
    body = {"offer_id": "off_x", "passengers": [{"given_name": "Joana Confidencial"}]}
    response = test_client.post(BOOKINGS, orjson.dumps(body), content_type="application/json")
    assert response.status_code == 400
    row = only_row()
    assert (row.method, row.path, row.status) == ("POST", BOOKINGS, 400)
    assert row.error_code == response.json()["error"]["code"] == "invalid_request"
    assert (row.team_id, row.live_mode) == (team.pk, False)
    assert row.request_id == response.json()["error"]["request_id"]
    stored = ApiRequest.objects.filter(pk=row.pk).values().get()
    assert not any("Confidencial" in str(value) for value in stored.values())


def test_a_401_is_recorded_without_a_team(anon_client):
    anon_client.credentials(HTTP_AUTHORIZATION="Bearer sk_live_" + "x" * 40)
    response = anon_client.get(BALANCE)
    assert response.status_code == 401
    row = only_row()
    assert (row.status, row.error_code) == (401, "unauthorized")
    assert (row.team_id, row.api_key_id, row.live_mode) == (None, None, None)


def test_a_404_of_an_unknown_path_and_of_an_unknown_id(live_client, team):
    assert live_client.get("/api/v1/nothing-here?token=secret").status_code == 404
    assert live_client.get(f"{BOOKINGS}/bkg_doesnotexist").status_code == 404
    unknown_path, unknown_id = recorded()
    # No view authenticated the first: it is nobody's (support sees it).
    assert (unknown_path.path, unknown_path.error_code) == ("/api/v1/nothing-here", "not_found")
    assert unknown_path.team_id is None
    assert (unknown_id.path, unknown_id.status) == (f"{BOOKINGS}/bkg_doesnotexist", 404)
    assert (unknown_id.team_id, unknown_id.error_code) == (team.pk, "booking_not_found")


@override_settings(API_RATE_LIMIT="2/minute")
def test_a_429_is_recorded_with_its_team(live_client, team):
    statuses = [live_client.get(BALANCE).status_code for _ in range(3)]
    assert statuses == [200, 200, 429]
    rows = recorded()
    assert [(r.status, r.error_code) for r in rows] == [
        (200, ""),
        (200, ""),
        (429, "rate_limited"),
    ]
    assert {r.team_id for r in rows} == {team.pk}


def test_a_413_answered_by_the_api_middleware_is_recorded(test_client, settings):
    settings.API_MAX_BODY_BYTES = 10
    response = test_client.post(
        BOOKINGS, b'{"offer_id": "off_long"}', content_type="application/json"
    )
    assert response.status_code == 413
    row = only_row()
    assert (row.status, row.error_code, row.team_id) == (413, "payload_too_large", None)


def test_a_long_path_is_cut_to_200_characters(live_client):
    assert live_client.get(f"{BOOKINGS}/bkg_{'a' * 300}").status_code == 404
    assert only_row().path == f"{BOOKINGS}/bkg_{'a' * 300}"[:200]


def test_panel_pages_are_not_recorded(team_owner):
    assert browser_for(team_owner).get(reverse("admin:index")).status_code == 200
    assert recorded() == []


@override_settings(API_REQUEST_LOG_ENABLED=False)
def test_nothing_is_recorded_when_the_log_is_off(live_client):
    assert live_client.get(BALANCE).status_code == 200
    assert recorded() == []


# --- No round trip added to the request ---


def test_recording_adds_no_query_to_the_request(live_client):
    assert live_client.get(BALANCE).status_code == 200  # the key is read and cached
    with (
        override_settings(API_REQUEST_LOG_ENABLED=False),
        CaptureQueriesContext(connection) as off,
    ):
        assert live_client.get(BALANCE).status_code == 200
    with CaptureQueriesContext(connection) as on:
        assert live_client.get(BALANCE).status_code == 200
    assert len(on.captured_queries) == len(off.captured_queries) == 1
    with CaptureQueriesContext(connection) as flushed:
        assert request_log_flush() == 2  # the two requests with the log on
    # One statement for both: a COPY on PostgreSQL (psycopg's, which Django does not capture),
    # a multi-row INSERT elsewhere.
    statements = [q["sql"].split()[0] for q in flushed.captured_queries]
    assert statements == ([] if connection.vendor == "postgresql" else ["INSERT"])
    assert ApiRequest.objects.count() == 2


@override_settings(API_REQUEST_LOG_BATCH=2)
def test_a_flush_writes_everything_waiting_in_batches(live_client):
    for _ in range(5):
        live_client.get(BALANCE)
    with CaptureQueriesContext(connection) as flushed:
        assert request_log_flush() == 5
    inserts = [q for q in flushed.captured_queries if q["sql"].startswith("INSERT")]
    assert len(inserts) == (0 if connection.vendor == "postgresql" else 3)  # COPY: uncaptured
    assert ApiRequest.objects.count() == 5
    assert request_log_flush() == 0


@override_settings(API_REQUEST_LOG_MAX_BUFFERED=3)
def test_a_full_buffer_drops_its_oldest_rows(anon_client):
    for number in range(5):
        anon_client.get(f"/api/v1/nothing/{number}")
    assert [row.path for row in recorded()] == [f"/api/v1/nothing/{n}" for n in (2, 3, 4)]


# --- Retention ---


def test_rows_older_than_the_setting_are_purged_in_batches(settings):
    settings.API_REQUEST_LOG_DAYS = 30
    now = timezone.now()

    def row(age: timedelta, path: str) -> ApiRequest:
        return ApiRequest(created_at=now - age, method="GET", path=path, status=200, latency_ms=3)

    ApiRequest.objects.bulk_create(
        [row(timedelta(days=31, minutes=n), f"/old/{n}") for n in range(5)]
        + [row(timedelta(days=29, hours=23), "/kept")]
    )
    with CaptureQueriesContext(connection) as captured:
        assert request_log_purge(now=now, batch=2) == 5
    deletes = [q for q in captured.captured_queries if q["sql"].startswith("DELETE")]
    assert len(deletes) == 3
    assert list(ApiRequest.objects.values_list("path", flat=True)) == ["/kept"]


def test_the_daily_task_purges(settings):
    settings.API_REQUEST_LOG_DAYS = 1
    ApiRequest.objects.create(
        created_at=timezone.now() - timedelta(days=2),
        method="GET",
        path="/x",
        status=200,
        latency_ms=1,
    )
    assert purge_api_request_log.delay().get() == 1
    assert not ApiRequest.objects.exists()


def test_the_purge_is_scheduled_daily(settings):
    entry = settings.CELERY_BEAT_SCHEDULE["purge-api-request-log"]
    assert entry["task"] == purge_api_request_log.name
    assert entry["schedule"].hour == {4} and entry["schedule"].minute == {47}


# --- The flusher thread ---


@pytest.mark.django_db(transaction=True)
def test_the_flusher_thread_writes_the_buffer_by_itself(settings, team_keys):
    settings.API_REQUEST_LOG_FLUSH_SECONDS = 0.05
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {team_keys.test_key}")
    try:
        for _ in range(3):
            assert client.get(BALANCE).status_code == 200
        deadline = time.monotonic() + 10
        while ApiRequest.objects.count() < 3 and time.monotonic() < deadline:
            time.sleep(0.02)
        assert ApiRequest.objects.count() == 3
    finally:
        request_log_stop()


@needs_postgresql("threads writing at once: SQLite serialises every writer")
@pytest.mark.django_db(transaction=True)
@pytest.mark.timeout(120)
def test_concurrent_requests_are_all_recorded_once(settings, team_keys):
    """Threads serving requests while the flusher writes: on PostgreSQL (real concurrency), no
    row lost and none written twice."""
    settings.API_REQUEST_LOG_FLUSH_SECONDS = 0.01
    settings.API_REQUEST_LOG_BATCH = 7
    settings.API_RATE_LIMIT = "100000/minute"
    threads, each = 8, 40
    ids: list[str] = []
    failures: list[BaseException] = []

    def serve(number: int) -> None:
        client = APIClient()
        if number % 2:
            client.credentials(HTTP_AUTHORIZATION=f"Bearer {team_keys.test_key}")
        try:
            for _ in range(each):
                ids.append(client.get(BALANCE)["X-Request-Id"])
        except BaseException as error:  # the assertion below reports it
            failures.append(error)
        finally:
            connection.close()

    try:
        workers = [threading.Thread(target=serve, args=(n,)) for n in range(threads)]
        for worker in workers:
            worker.start()
        for worker in workers:
            worker.join()
    finally:
        request_log_stop()
    assert failures == []
    rows = list(ApiRequest.objects.values_list("request_id", flat=True))
    assert len(rows) == threads * each
    assert sorted(rows) == sorted(ids)
    assert ApiRequest.objects.filter(status=200).count() == threads * each // 2


# --- The panel ---


@pytest.fixture
def two_teams_requests(live_client, test_client, other_team_keys, anon_client):
    """Requests of two teams and one nobody's, recorded."""
    live_client.get(BALANCE)
    test_client.post(BOOKINGS, b"{}", content_type="application/json")
    live_client.get(f"{BOOKINGS}/bkg_missing")
    theirs = APIClient()
    theirs.credentials(HTTP_AUTHORIZATION=f"Bearer {other_team_keys.live_key}")
    theirs.get(f"{BOOKINGS}/bkg_theirs")
    anon_client.get(BALANCE)
    request_log_flush()


def listed(browser: BrowserClient, query: str = "") -> list[str]:
    page = browser.get(f"{CHANGELIST}{query}")
    assert page.status_code == 200, page.content[:500]
    return sorted(row.path for row in page.context["cl"].queryset)


@pytest.mark.usefixtures("two_teams_requests")
def test_an_agency_user_sees_only_their_teams_requests(team_owner):
    browser = browser_for(team_owner)
    assert listed(browser) == [BOOKINGS, f"{BOOKINGS}/bkg_missing", BALANCE]
    page = browser.get(CHANGELIST).content.decode()
    assert "Requisições da API" in page and "bkg_theirs" not in page
    theirs = ApiRequest.objects.get(path=f"{BOOKINGS}/bkg_theirs")
    assert browser.get(f"{CHANGELIST}{theirs.pk}/change/").status_code == 302  # not theirs


@pytest.mark.usefixtures("two_teams_requests")
def test_support_sees_every_request_and_the_unauthenticated_ones():
    browser = browser_for(SupportUserFactory())
    assert len(listed(browser)) == 5
    assert listed(browser, "?status=401") == [BALANCE]


@pytest.mark.usefixtures("two_teams_requests")
def test_the_panel_filters_by_status_path_key_mode_and_request_id(team_owner, team):
    browser = browser_for(team_owner)
    assert listed(browser, "?status=4xx") == [BOOKINGS, f"{BOOKINGS}/bkg_missing"]
    assert listed(browser, "?status=404") == [f"{BOOKINGS}/bkg_missing"]
    assert listed(browser, "?status=2xx") == [BALANCE]
    assert listed(browser, "?path=/api/v1/bookings") == [BOOKINGS, f"{BOOKINGS}/bkg_missing"]
    assert listed(browser, "?q=missing") == [f"{BOOKINGS}/bkg_missing"]
    test_key = ApiKey.objects.get(team=team, live_mode=False)
    assert listed(browser, f"?api_key={test_key.pk}") == [BOOKINGS]
    assert listed(browser, "?mode=test") == [BOOKINGS]
    one = ApiRequest.objects.get(path=BOOKINGS)
    assert listed(browser, f"?q={one.request_id}") == [BOOKINGS]
    page = browser.get(f"{CHANGELIST}{one.pk}/change/").content.decode()
    assert one.request_id in page and "invalid_request" in page


@pytest.mark.usefixtures("two_teams_requests")
def test_the_key_filter_lists_only_the_teams_keys(team_owner, team):
    page = browser_for(team_owner).get(CHANGELIST)
    key_filter = next(f for f in page.context["cl"].filter_specs if f.parameter_name == "api_key")
    assert {value for value, _ in key_filter.lookup_choices} == set(
        ApiKey.objects.filter(team=team).values_list("pk", flat=True)
    )


def test_a_keys_page_links_to_its_requests(team_owner, team):
    key = ApiKey.objects.get(team=team, live_mode=False)
    page = browser_for(team_owner).get(reverse("admin:agencies_apikey_change", args=[key.pk]))
    assert f'href="{CHANGELIST}?api_key={key.pk}"' in page.content.decode()


def test_the_fast_insert_writes_what_the_orm_writes(live_client, anon_client):
    from agencies import request_log

    live_client.get(BALANCE)
    anon_client.get("/api/v1/nothing")
    rows = list(request_log._buffer)
    request_log.rows_insert(rows)
    request_log.rows_insert_orm(rows)
    fast, orm = (
        [
            {k: v for k, v in values.items() if k != "id"}
            for values in ApiRequest.objects.order_by("id").values()[start : start + 2]
        ]
        for start in (0, 2)
    )
    assert fast == orm and len(fast) == 2
    assert fast[0]["live_mode"] is True and fast[1]["team_id"] is None


def test_a_failed_flush_keeps_its_rows_for_the_next_one(live_client):
    from django.db import IntegrityError, transaction

    from agencies import request_log

    live_client.get(BALANCE)
    [good] = list(request_log._buffer)
    refused = (*good[:6], -1, *good[7:])  # a negative status: the table's check refuses it
    request_log._buffer.append(refused)
    with pytest.raises(IntegrityError), transaction.atomic():
        request_log_flush()
    assert list(request_log._buffer) == [good, refused]  # back, in their order
    assert not ApiRequest.objects.exists()
    request_log._buffer.pop()
    assert request_log_flush() == 1
    assert only_row().request_id == good[8]


# --- For real: gunicorn's workers ---


@needs_real_stack
@pytest.mark.django_db(transaction=True)
@pytest.mark.timeout(180)
def test_gunicorn_workers_write_every_request_by_batch_and_at_exit(team_keys):
    """Two forked workers, each with its flusher: a full batch is written at once (the period
    is an hour here), and what is left when gunicorn stops is written at the workers' exit."""
    import signal

    import requests

    stack = Stack()
    stack.env.update(API_REQUEST_LOG_FLUSH_SECONDS="3600", API_REQUEST_LOG_BATCH="3")
    try:
        server = stack.start_web(workers=2)
        live = {"Authorization": f"Bearer {team_keys.live_key}"}
        with requests.Session() as http:
            ids = [
                http.get(f"{stack.base_url}{BALANCE}", headers=live).headers["X-Request-Id"]
                for _ in range(13)
            ]
        # Each worker keeps at most two rows (a third wakes its flusher).
        assert wait_until(lambda: ApiRequest.objects.count() >= 13 - 2 * 2, timeout=30)
        server.send_signal(signal.SIGTERM)  # a graceful stop: the workers exit
        server.wait(timeout=60)
    finally:
        stack.stop()
    assert sorted(ApiRequest.objects.values_list("request_id", flat=True)) == sorted(ids)
