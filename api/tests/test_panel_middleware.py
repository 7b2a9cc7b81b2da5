"""The panel's middleware that API requests go past (api/middleware.py): static files, the
panel's user, its messages, and the audit context of reads. The panel still gets all of them,
and an API write still leaves its client's address on the audit entries it causes."""

import pytest
from auditlog.context import auditlog_value
from django.http import HttpResponse
from django.test import RequestFactory

from api.middleware import AuditlogMiddleware, AuthenticationMiddleware, MessageMiddleware
from core.models import AuditEntry
from webhooks.models import WebhookEndpoint

pytestmark = pytest.mark.django_db


class Seen:
    """A view that notes what the middleware before it left on the request."""

    def __init__(self):
        self.request = None
        self.audit_context = None

    def __call__(self, request):
        self.request = request
        self.audit_context = auditlog_value.get(None)
        return HttpResponse("ok")


def through(middleware_class, method: str, path: str) -> Seen:
    seen = Seen()
    request = getattr(RequestFactory(), method.lower())(path, REMOTE_ADDR="203.0.113.7")
    request.session = {}  # what SessionMiddleware (before these) gives every request
    auditlog_value.set(None)
    assert middleware_class(seen)(request).status_code == 200
    return seen


@pytest.mark.parametrize("path", ["/api/v1/wallet/balance", "/api/v1/bookings"])
def test_an_api_request_gets_no_panel_user_and_no_messages(path):
    assert not hasattr(through(AuthenticationMiddleware, "GET", path).request, "user")
    assert not hasattr(through(MessageMiddleware, "GET", path).request, "_messages")


def test_a_panel_request_gets_its_user_and_messages():
    assert through(AuthenticationMiddleware, "GET", "/admin/").request.user.is_anonymous
    assert hasattr(through(MessageMiddleware, "GET", "/admin/").request, "_messages")


def test_api_reads_have_no_audit_context_and_writes_and_the_panel_do():
    assert through(AuditlogMiddleware, "GET", "/api/v1/wallet/balance").audit_context is None
    for method, path in [("POST", "/api/v1/bookings"), ("GET", "/admin/"), ("POST", "/admin/")]:
        context = through(AuditlogMiddleware, method, path).audit_context
        assert context is not None and context["remote_addr"] == "203.0.113.7", (method, path)


def test_an_api_write_leaves_its_clients_address_on_the_audit_entry(test_client, https_receiver):
    response = test_client.post(
        "/api/v1/webhooks",
        {"url": https_receiver.url, "events": ["booking.created"]},
        format="json",
        REMOTE_ADDR="203.0.113.7",
    )
    assert response.status_code == 201, response.content
    endpoint = WebhookEndpoint.objects.get()
    entry = AuditEntry.objects.filter(object_pk=endpoint.pk).order_by("timestamp").first()
    assert entry is not None and entry.remote_addr == "203.0.113.7"


def test_static_files_are_still_served_outside_the_api(client):
    assert client.get("/static/admin/css/base.css").status_code == 200
