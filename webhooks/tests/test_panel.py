"""Webhooks in the panel: an agency user sees their team's endpoints, deliveries and attempts,
reactivates, redelivers and sends a test event; never another team's; support sees all."""

import orjson
import pytest
from django.urls import reverse
from django.utils import timezone

from agencies.tests.factories import SupportUserFactory
from tests.kit.factories import SECRET, make_endpoint, record
from tests.kit.panel import browser_for
from webhooks.models import Delivery, WebhookEndpoint
from webhooks.services import delivery_attempt

pytestmark = pytest.mark.django_db

ENDPOINTS = reverse("admin:webhooks_webhookendpoint_changelist")
DELIVERIES = reverse("admin:webhooks_delivery_changelist")


def endpoint_page(endpoint):
    return reverse("admin:webhooks_webhookendpoint_change", args=[endpoint.pk])


def delivery_page(delivery):
    return reverse("admin:webhooks_delivery_change", args=[delivery.pk])


@pytest.fixture
def deliveries_of_two_teams(team, other_team, https_receiver, django_capture_on_commit_callbacks):
    https_receiver.respond("/theirs", status=500, body=b"their server is down")
    mine = make_endpoint(team, https_receiver.url_for("/mine"))
    theirs = make_endpoint(other_team, https_receiver.url_for("/theirs"))
    with django_capture_on_commit_callbacks(execute=True):
        record(team)
        record(other_team)
    return mine, theirs


def test_agency_user_sees_only_their_teams_endpoints_and_deliveries(
    team_owner, deliveries_of_two_teams
):
    mine, theirs = deliveries_of_two_teams
    browser = browser_for(team_owner)

    endpoints = browser.get(ENDPOINTS)
    deliveries = browser.get(DELIVERIES)

    assert list(endpoints.context["cl"].queryset) == [mine]
    assert [d.endpoint_id for d in deliveries.context["cl"].queryset] == [mine.id]
    assert theirs.url not in endpoints.content.decode() + deliveries.content.decode()


def test_agency_user_cannot_open_another_teams_endpoint_or_delivery(
    team_owner, deliveries_of_two_teams
):
    _, theirs = deliveries_of_two_teams
    browser = browser_for(team_owner)
    for page in (endpoint_page(theirs), delivery_page(theirs.deliveries.get())):
        response = browser.get(page)
        assert response.status_code in (302, 404)  # the admin's "does not exist"
        assert "their server is down" not in response.content.decode()


def test_a_delivery_page_shows_its_attempts_and_the_endpoint_page_hides_the_secret(
    other_team_owner, deliveries_of_two_teams
):
    _, theirs = deliveries_of_two_teams
    browser = browser_for(other_team_owner)

    delivery = browser.get(delivery_page(theirs.deliveries.get())).content.decode()
    endpoint = browser.get(endpoint_page(theirs)).content.decode()

    assert "500" in delivery and "their server is down" in delivery  # status and excerpt
    assert theirs.url in endpoint and SECRET not in endpoint


def test_support_staff_see_every_teams_webhooks(deliveries_of_two_teams):
    support = browser_for(SupportUserFactory())
    endpoints = support.get(ENDPOINTS).context["cl"].queryset
    deliveries = support.get(DELIVERIES).context["cl"].queryset
    assert set(endpoints) == set(deliveries_of_two_teams)
    assert deliveries.count() == 2


def test_agency_user_reactivates_a_deactivated_endpoint(team, team_owner, https_receiver):
    endpoint = make_endpoint(
        team,
        https_receiver.url,
        active=False,
        consecutive_failures=6,
        deactivated_at=timezone.now(),
    )

    browser = browser_for(team_owner)
    chosen = {"action": "reactivate", "_selected_action": [endpoint.pk]}
    confirmation = browser.post(ENDPOINTS, chosen)  # first a page that says what will happen
    assert "admin/confirm_action.html" in [t.name for t in confirmation.templates]
    assert "Um evento de teste é enviado primeiro para" in confirmation.content.decode()
    assert not WebhookEndpoint.objects.get(pk=endpoint.pk).active

    response = browser.post(ENDPOINTS, {**chosen, "post": "yes"}, follow=True)

    assert f"Reativado: {endpoint.url}." in response.content.decode()  # Portuguese by default
    endpoint.refresh_from_db()
    assert endpoint.active and endpoint.consecutive_failures == 0
    assert endpoint.deactivated_at is None
    (test,) = https_receiver.requests  # tested first
    assert orjson.loads(test.body)["type"] == "webhook.test"


def test_reactivating_from_the_list_keeps_a_webhook_whose_test_fails_deactivated(
    team, team_owner, https_receiver
):
    https_receiver.respond("/hooks", status=500)
    endpoint = make_endpoint(
        team,
        https_receiver.url_for("/hooks"),
        active=False,
        consecutive_failures=6,
        deactivated_at=timezone.now(),
    )
    chosen = {"action": "reactivate", "_selected_action": [endpoint.pk], "post": "yes"}

    response = browser_for(team_owner).post(ENDPOINTS, chosen, follow=True)

    assert "O destino não aceitou o evento de teste" in response.content.decode()
    endpoint.refresh_from_db()
    assert not endpoint.active and endpoint.consecutive_failures == 6


def test_agency_user_sends_a_test_event(
    team, team_owner, https_receiver, django_capture_on_commit_callbacks
):
    endpoint = make_endpoint(team, https_receiver.url)

    with django_capture_on_commit_callbacks(execute=True):
        browser_for(team_owner).post(
            ENDPOINTS, {"action": "send_test_event", "_selected_action": [endpoint.pk]}
        )

    (request,) = https_receiver.requests
    assert orjson.loads(request.body)["type"] == "webhook.test"


def test_agency_user_redelivers_an_event(
    team, team_owner, https_receiver, django_capture_on_commit_callbacks
):
    make_endpoint(team, https_receiver.url)
    with django_capture_on_commit_callbacks(execute=True):
        event = record(team)
    delivery = Delivery.objects.get()

    with django_capture_on_commit_callbacks(execute=True):
        browser_for(team_owner).post(
            DELIVERIES, {"action": "redeliver", "_selected_action": [delivery.pk]}
        )

    assert [r.headers["X-Service-Event-Id"] for r in https_receiver.requests] == [event.id] * 2
    assert delivery.attempts.count() == 2


def test_an_agency_user_cannot_redeliver_another_teams_delivery(
    team_owner, other_team, https_receiver, django_capture_on_commit_callbacks
):
    make_endpoint(other_team, https_receiver.url)
    with django_capture_on_commit_callbacks(execute=True):
        record(other_team)
    theirs = Delivery.objects.get()

    with django_capture_on_commit_callbacks(execute=True):
        browser_for(team_owner).post(
            DELIVERIES, {"action": "redeliver", "_selected_action": [theirs.pk]}
        )

    assert len(https_receiver.requests) == 1  # only the original delivery
    assert delivery_attempt(theirs.pk) is None  # nothing was made due again
    assert WebhookEndpoint.objects.get().total_deliveries == 1
