"""The webhook portal's pages in the panel (Svix's app portal and Stripe's webhook pages are the
models): an endpoint's health on its page, its attempt log, "send a test event" and
"reactivate" that show the receiver's answer, "recover since…", and "redeliver" on a
delivery's page. Every page reads the endpoint through the admin's team-scoped queryset, so an
agency user reaches only their team's endpoints (another team's id is "not found"), and every
action goes through the same services as the API, recorded in the endpoint's history."""

from datetime import timedelta
from typing import TYPE_CHECKING

from django.contrib import admin, messages
from django.contrib.admin.utils import unquote
from django.core.exceptions import PermissionDenied
from django.core.paginator import Paginator
from django.http import Http404, HttpResponseNotAllowed, HttpResponseRedirect
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils import timezone
from django.utils.http import urlencode
from django.utils.translation import gettext, gettext_noop, ngettext
from django.utils.translation import gettext as _t
from django.utils.translation import gettext_lazy as _

from core.audit import audit_action
from core.exceptions import ApplicationError
from webhooks.display import attempt_error_for_people
from webhooks.models import (
    SUBSCRIBABLE_EVENT_TYPES,
    Delivery,
    DeliveryAttempt,
    EventType,
    WebhookEndpoint,
)
from webhooks.portal import (
    ATTEMPTS_PER_PAGE,
    STATUSES,
    InvalidTypedTime,
    endpoint_attempts,
    endpoint_health,
    filter_attempts,
    format_brasilia,
    parse_brasilia,
    read_filters,
)
from webhooks.services import (
    delivery_redeliver,
    event_payload,
    webhook_recover,
    webhook_test_now,
    webhook_update,
)
from webhooks.services.recovery import recovery_window

# The services' messages this portal shows (the API's English is the msgid, as in
# panel/messages.py).
PANEL_MESSAGES = [
    gettext_noop("Reactivate the webhook before recovering its events"),
    gettext_noop("Another webhook URL of this team is being checked; retry shortly"),
    gettext_noop("Webhook not found"),
    gettext_noop("Delivery not found"),
]

RECOVER_DEFAULT = 24  # hours back the "recover since…" field suggests for an active endpoint


def attempt_view(attempt: DeliveryAttempt) -> dict:
    """An attempt as the pages show it: its request (headers as stored, the body rebuilt from
    the event, which never changes) and the receiver's answer."""
    delivery = attempt.delivery
    body = event_payload(delivery.event, webhook_id=delivery.endpoint_id).decode()
    return {
        "attempt": attempt,
        "delivery": delivery,
        "headers": sorted(attempt.request_headers.items()),
        "body": body,
        "is_test": delivery.is_test,
    }


if TYPE_CHECKING:  # what the mixins are mixed into
    _EndpointAdminBase = admin.ModelAdmin[WebhookEndpoint]
    _DeliveryAdminBase = admin.ModelAdmin[Delivery]
else:
    _EndpointAdminBase = _DeliveryAdminBase = object


class WebhookPortalMixin(_EndpointAdminBase):
    """For WebhookEndpointAdmin."""

    change_form_template = "admin/webhooks/webhookendpoint/change_form.html"

    def get_urls(self):
        info = self.opts.app_label, self.opts.model_name
        wrap = self.admin_site.admin_view
        return [
            path(
                "<path:object_id>/attempts/",
                wrap(self.attempts_view),
                name="{}_{}_attempts".format(*info),
            ),
            path(
                "<path:object_id>/test/",
                wrap(self.test_view),
                name="{}_{}_test".format(*info),
            ),
            path(
                "<path:object_id>/reactivate/",
                wrap(self.reactivate_view),
                name="{}_{}_reactivate".format(*info),
            ),
            path(
                "<path:object_id>/recover/",
                wrap(self.recover_view),
                name="{}_{}_recover".format(*info),
            ),
            *super().get_urls(),
        ]

    # --- reading --------------------------------------------------------------------------

    def _endpoint(self, request, object_id, *, change: bool):
        endpoint = self.get_object(request, unquote(object_id))  # team-scoped
        if endpoint is None:
            raise Http404(_t("Webhook not found"))
        allowed = (
            self.has_change_permission(request, endpoint)
            if change
            else self.has_view_permission(request, endpoint)
        )
        if not allowed:
            raise PermissionDenied
        return endpoint

    def _page_url(self, endpoint, **query) -> str:
        url = reverse("admin:webhooks_webhookendpoint_change", args=[endpoint.pk])
        return f"{url}?{urlencode(query)}" if query else url

    def change_view(self, request, object_id, form_url="", extra_context=None):
        endpoint = self.get_object(request, unquote(object_id))
        extra = dict(extra_context or {})
        if endpoint is not None:
            extra.update(self._portal_context(request, endpoint))
        return super().change_view(request, object_id, form_url, extra)

    def _portal_context(self, request, endpoint) -> dict:
        shown_test = None
        test_id = request.GET.get("test", "")
        if test_id.isdigit():
            found = (
                endpoint_attempts(endpoint)
                .filter(pk=int(test_id))
                .select_related("delivery__event")
                .first()
            )
            shown_test = attempt_view(found) if found else None
        health = endpoint_health(endpoint)
        # Where the events it missed begin: when it was last deactivated (kept after the
        # reactivation), if the events are still kept; else the last day.
        suggested = endpoint.deactivated_at or endpoint.paused_at or endpoint.last_deactivated_at
        if suggested is None or suggested < timezone.now() - recovery_window():
            suggested = timezone.now() - timedelta(hours=RECOVER_DEFAULT)
        return {
            "health": health,
            "shown_test": shown_test,
            "recover_since": format_brasilia(suggested),
            "can_act": self.has_change_permission(request, endpoint),
            "attempts_url": reverse("admin:webhooks_webhookendpoint_attempts", args=[endpoint.pk]),
        }

    def attempts_view(self, request, object_id):
        endpoint = self._endpoint(request, object_id, change=False)
        filters = read_filters(request.GET)
        attempts = filter_attempts(endpoint, filters)
        page = Paginator(attempts, ATTEMPTS_PER_PAGE).get_page(request.GET.get("page"))
        query = request.GET.copy()
        query.pop("page", None)
        context = {
            **self.admin_site.each_context(request),
            "title": _("Attempts: %(url)s") % {"url": endpoint.url},
            "subtitle": None,
            "opts": self.opts,
            "original": endpoint,
            "endpoint": endpoint,
            "page": page,
            "rows": [attempt_view(a) for a in page.object_list],
            "filters": filters,
            "statuses": [(s, STATUS_LABELS[s]) for s in STATUSES],
            "event_types": sorted({*SUBSCRIBABLE_EVENT_TYPES, EventType.WEBHOOK_TEST}),
            "since_text": request.GET.get("since", ""),
            "until_text": request.GET.get("until", ""),
            "query": query.urlencode(),
            "endpoint_url": self._page_url(endpoint),
        }
        request.current_app = self.admin_site.name
        return TemplateResponse(request, "admin/webhooks/webhookendpoint/attempts.html", context)

    # --- acting ---------------------------------------------------------------------------

    def test_view(self, request, object_id):
        """Send a test event now; the endpoint's page then shows the receiver's answer."""
        if request.method != "POST":
            return HttpResponseNotAllowed(["POST"])
        endpoint = self._endpoint(request, object_id, change=True)
        try:
            attempt = self._send_test(request, endpoint)
        except ApplicationError as exc:
            self.message_user(request, _t(exc.message), messages.ERROR)
            return HttpResponseRedirect(self._page_url(endpoint))
        return HttpResponseRedirect(self._page_url(endpoint, test=attempt.pk) + "#test-answer")

    def _send_test(self, request, endpoint) -> DeliveryAttempt:
        sent = {}

        def run(obj):
            sent["attempt"] = webhook_test_now(endpoint=obj)

        audit_action(
            actor=request.user,
            obj=endpoint,
            action="webhook_test",
            summary=str(_("A test event, sent once; it counts toward nothing.")),
            run=run,
        )
        attempt = sent["attempt"]
        if attempt.succeeded:
            self.message_user(
                request,
                _("The receiver accepted the test event (HTTP %(status)s).")
                % {"status": attempt.status_code},
                messages.SUCCESS,
            )
        else:
            self.message_user(
                request,
                _("The receiver did not accept the test event: %(error)s.")
                % {"error": attempt_error_for_people(attempt.error)},
                messages.WARNING,
            )
        return attempt

    def reactivate_view(self, request, object_id):
        """A test first: if the receiver accepts it the endpoint is reactivated; if not, the
        answer is shown and the user chooses "reactivate anyway" or keeps it deactivated."""
        if request.method != "POST":
            return HttpResponseNotAllowed(["POST"])
        endpoint = self._endpoint(request, object_id, change=True)
        if endpoint.active:
            self.message_user(request, _("Already active: nothing changes."), messages.INFO)
            return HttpResponseRedirect(self._page_url(endpoint))
        if request.POST.get("anyway") == "yes":
            self._reactivate(request, endpoint)
            return HttpResponseRedirect(self._page_url(endpoint))
        try:
            attempt = self._send_test(request, endpoint)
        except ApplicationError as exc:
            self.message_user(request, _t(exc.message), messages.ERROR)
            return HttpResponseRedirect(self._page_url(endpoint))
        if attempt.succeeded:
            self._reactivate(request, endpoint)
            return HttpResponseRedirect(self._page_url(endpoint, test=attempt.pk))
        context = {
            **self.admin_site.each_context(request),
            "title": _("Reactivate %(url)s?") % {"url": endpoint.url},
            "subtitle": None,
            "opts": self.opts,
            "original": endpoint,
            "endpoint": endpoint,
            "shown_test": attempt_view(attempt),
            "endpoint_url": self._page_url(endpoint),
        }
        request.current_app = self.admin_site.name
        return TemplateResponse(
            request, "admin/webhooks/webhookendpoint/reactivate_failed.html", context
        )

    def _reactivate(self, request, endpoint) -> None:
        try:
            audit_action(
                actor=request.user,
                obj=endpoint,
                action="webhook_reactivate",
                summary=str(
                    _("Reactivated; the count of consecutive failures starts again from 0.")
                ),
                run=lambda obj: webhook_update(endpoint=obj, active=True),
            )
        except ApplicationError as exc:
            self.message_user(request, _t(exc.message), messages.ERROR)
            return
        self.message_user(
            request,
            _(
                "Reactivated. Events are sent again, starting with those that waited (each from "
                "its first attempt); failures count again from zero: %(count)s consecutive "
                "failed attempts deactivate it again."
            )
            % {"count": self._failures_before_deactivation()},
            messages.SUCCESS,
        )

    @staticmethod
    def _failures_before_deactivation() -> int:
        from django.conf import settings

        return settings.WEBHOOK_FAILURES_BEFORE_DEACTIVATION

    @staticmethod
    def _recover_problem(since) -> str:
        now = timezone.now()
        if since > now:
            return gettext("The time must not be in the future.")
        oldest = now - recovery_window()
        if since < oldest:
            return gettext(
                "Events are kept %(days)s days: choose a time after %(oldest)s (Brasília time)."
            ) % {"days": recovery_window().days, "oldest": format_brasilia(oldest)}
        return ""

    def recover_view(self, request, object_id):
        """Redeliver every event of the subscribed types since a Brasília date-time."""
        if request.method != "POST":
            return HttpResponseNotAllowed(["POST"])
        endpoint = self._endpoint(request, object_id, change=True)
        typed = request.POST.get("since", "")
        try:
            since = parse_brasilia(typed)
        except InvalidTypedTime:
            self.message_user(
                request,
                _("Type the date and time as dd/mm/aaaa hh:mm (Brasília time), e.g. %(example)s.")
                % {"example": format_brasilia(timezone.now())},
                messages.ERROR,
            )
            return HttpResponseRedirect(self._page_url(endpoint) + "#recover")
        problem = self._recover_problem(since)
        if problem:
            self.message_user(request, problem, messages.ERROR)
            return HttpResponseRedirect(self._page_url(endpoint) + "#recover")
        queued = {}

        def run(obj):
            queued["count"] = webhook_recover(endpoint=obj, since=since)

        try:
            audit_action(
                actor=request.user,
                obj=endpoint,
                action="webhook_recover",
                summary=str(_("Since %(since)s (Brasília time)") % {"since": typed.strip()}),
                run=run,
            )
        except ApplicationError as exc:
            detail = " ".join(str(v) for v in (exc.details or {}).values())
            text = _t(exc.message) + (f" ({detail})" if detail else "")
            self.message_user(request, text, messages.ERROR)
            return HttpResponseRedirect(self._page_url(endpoint) + "#recover")
        count = queued["count"]
        self.message_user(
            request,
            ngettext(
                "%(count)d event since %(since)s is being delivered again.",
                "%(count)d events since %(since)s are being delivered again.",
                count,
            )
            % {"count": count, "since": typed.strip()},
            messages.SUCCESS,
        )
        return HttpResponseRedirect(
            reverse("admin:webhooks_webhookendpoint_attempts", args=[endpoint.pk])
        )


STATUS_LABELS = {
    "succeeded": _("Succeeded"),
    "failed": _("Failed"),
    "test": _("Test"),
}


class DeliveryPortalMixin(_DeliveryAdminBase):
    """For DeliveryAdmin: a "redeliver" button on the delivery's page."""

    change_form_template = "admin/webhooks/delivery/change_form.html"

    def get_urls(self):
        info = self.opts.app_label, self.opts.model_name
        return [
            path(
                "<path:object_id>/redeliver/",
                self.admin_site.admin_view(self.redeliver_view),
                name="{}_{}_redeliver".format(*info),
            ),
            *super().get_urls(),
        ]

    def change_view(self, request, object_id, form_url="", extra_context=None):
        extra = {"can_redeliver": self.has_redeliver_permission(request)}
        return super().change_view(request, object_id, form_url, {**extra, **(extra_context or {})})

    def redeliver_view(self, request, object_id):
        if request.method != "POST":
            return HttpResponseNotAllowed(["POST"])
        delivery = self.get_object(request, unquote(object_id))  # team-scoped
        if delivery is None:
            raise Http404(_t("Delivery not found"))
        if not self.has_redeliver_permission(request):
            raise PermissionDenied
        if delivery.is_test:
            self.message_user(
                request, _("A test is sent once; send a new test instead."), messages.ERROR
            )
        else:
            audit_action(
                actor=request.user,
                obj=delivery.endpoint,
                action="delivery_redeliver",
                summary=delivery.event_id,
                run=lambda obj: delivery_redeliver(delivery=delivery),
            )
            self.message_user(
                request,
                _("%(event)s is being delivered again, from its first attempt.")
                % {"event": delivery.event_id},
                messages.SUCCESS,
            )
        return HttpResponseRedirect(reverse("admin:webhooks_delivery_change", args=[delivery.pk]))
