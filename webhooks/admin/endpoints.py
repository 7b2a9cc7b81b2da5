"""A webhook endpoint's pages in the panel, the webhook portal (Svix's app portal and Stripe's
webhook pages are the models): the list and the endpoint's page with its health, its attempt
log, "send a test event" and "reactivate" that show the receiver's answer, and "recover
since…". Every page reads the endpoint through the admin's team-scoped queryset, so an agency
user reaches only their team's endpoints (another team's id is "not found"), and every action
goes through the same services as the API, recorded in the endpoint's history."""

from datetime import timedelta

from django import forms
from django.contrib import admin, messages
from django.contrib.admin.utils import unquote
from django.core.exceptions import PermissionDenied
from django.core.paginator import Paginator
from django.http import Http404, HttpResponseNotAllowed, HttpResponseRedirect
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils import timezone
from django.utils.formats import localize
from django.utils.html import format_html
from django.utils.http import urlencode
from django.utils.text import capfirst
from django.utils.timezone import localtime
from django.utils.translation import gettext, gettext_noop, ngettext, pgettext_lazy
from django.utils.translation import gettext as _t
from django.utils.translation import gettext_lazy as _

from core.audit import audit_action
from core.exceptions import ApplicationError
from panel.admin import TeamScopedAdmin, admin_url, live_mode_filter, related_rows, status_label
from panel.roles import Area
from webhooks.admin.deliveries import delivery_status
from webhooks.display import (
    ATTEMPTS_PER_PAGE,
    STATUSES,
    InvalidTypedTime,
    attempt_error_for_people,
    endpoint_attempts,
    endpoint_health,
    filter_attempts,
    format_brasilia,
    parse_brasilia,
    read_filters,
)
from webhooks.models import (
    SUBSCRIBABLE_EVENT_TYPES,
    Delivery,
    DeliveryAttempt,
    EventType,
    WebhookEndpoint,
)
from webhooks.services import (
    event_payload,
    webhook_delete,
    webhook_reactivate_after_test,
    webhook_recover,
    webhook_rotate_secret,
    webhook_send_test_event,
    webhook_test_now,
    webhook_update,
)
from webhooks.services.endpoints import (
    PREVIOUS_SECRET_HOURS_DEFAULT,
    PREVIOUS_SECRET_HOURS_MAX,
)
from webhooks.services.recovery import recovery_window

# The services' messages these pages show (the API's English is the msgid, as in
# panel/messages.py).
PANEL_MESSAGES = [
    gettext_noop("Reactivate the webhook before recovering its events"),
    gettext_noop("Another webhook URL of this team is being checked; retry shortly"),
    gettext_noop("Webhook not found"),
]

RECENT_DELIVERIES = 20  # shown on a webhook's page; the rest are one click away
RECOVER_DEFAULT = 24  # hours back the "recover since…" field suggests for an active endpoint

STATUS_LABELS = {
    "succeeded": _("Succeeded"),
    "failed": _("Failed"),
    "test": _("Test"),
}


def attempt_view(attempt: DeliveryAttempt) -> dict:
    """An attempt as the pages show it: its request (headers as stored, the body rebuilt from
    the event, which never changes) and the receiver's answer."""
    delivery = attempt.delivery
    body = event_payload(
        delivery.event,
        webhook_id=delivery.endpoint_id,
        api_version=delivery.endpoint.api_version,
    ).decode()
    return {
        "attempt": attempt,
        "delivery": delivery,
        "headers": sorted(attempt.request_headers.items()),
        "body": body,
        "is_test": delivery.is_test,
    }


class WebhookEndpointForm(forms.ModelForm):
    events = forms.MultipleChoiceField(
        label=capfirst(_("events")),
        choices=[(t, t) for t in sorted(SUBSCRIBABLE_EVENT_TYPES)],
        widget=forms.CheckboxSelectMultiple,
    )

    class Meta:
        model = WebhookEndpoint
        # `active` is switched by the confirmed actions (deactivate, reactivate), not here.
        fields = ["events"]


@admin.register(WebhookEndpoint)
class WebhookEndpointAdmin(TeamScopedAdmin):
    panel_area = Area.DEVELOPERS
    change_form_template = "admin/webhooks/webhookendpoint/change_form.html"
    form = WebhookEndpointForm
    list_display = [
        "url",
        "team",
        "state",
        "success_rate_display",
        "total_deliveries",
        "last_triggered_at",
    ]
    list_filter = [live_mode_filter(), "active", "team"]
    search_fields = ["url", "id", "team__name"]
    list_select_related = ["team"]
    readonly_fields = [
        "id",
        "team",
        "url",
        "live_mode",
        "state",
        "api_version",
        "consecutive_failures",
        "deactivated_at",
        "reactivated_at",
        "success_rate_display",
        "total_deliveries",
        "failed_deliveries",
        "last_triggered_at",
        "created_at",
        "updated_at",
        "recent_deliveries",
    ]
    # `active` shows as the state; it changes only through the confirmed actions.
    fields = [*readonly_fields[:5], "events", *readonly_fields[5:]]
    actions = ["deactivate", "reactivate", "send_test_event"]

    @admin.display(description=_("state"), ordering="active")
    def state(self, obj):
        if obj.active:
            return status_label("active", pgettext_lazy("webhook", "Active"))
        return status_label("inactive", _("Deactivated"))

    @admin.display(description=_("success rate"))
    def success_rate_display(self, obj):
        from django.utils.formats import number_format

        return f"{number_format(obj.success_rate, decimal_pos=2)}\N{NO-BREAK SPACE}%"

    @admin.display(description=_("recent deliveries"))
    def recent_deliveries(self, obj):
        deliveries = obj.deliveries.select_related("event").order_by("-created_at", "-id")
        latest = list(deliveries[:RECENT_DELIVERIES])
        return related_rows(
            headers=[_("event"), _("type"), _("status"), _("attempts"), _("created at")],
            rows=[
                (
                    format_html(
                        '<a href="{}">{}</a>', admin_url(Delivery, "change", d.pk), d.event_id
                    ),
                    d.event.type,
                    delivery_status(d),
                    d.attempt_count,
                    localize(localtime(d.created_at)),
                )
                for d in latest
            ],
            total=deliveries.count(),
            changelist_url=admin_url(Delivery, "changelist"),
            filters={
                "endpoint__id__exact": obj.pk,
                "mode": "live" if obj.live_mode else "test",
            },
            limit=RECENT_DELIVERIES,
        )

    def has_add_permission(self, request):
        return False  # created through the API, where the URL is probed and the secret shown

    def save_model(self, request, obj, form, change):
        saved = WebhookEndpoint.objects.get(pk=obj.pk)
        webhook_update(endpoint=saved, events=obj.events)

    def delete_model(self, request, obj):
        webhook_delete(endpoint=obj)

    def delete_queryset(self, request, queryset):
        for endpoint in queryset:
            webhook_delete(endpoint=endpoint)

    @admin.action(description=_("Deactivate selected webhooks"), permissions=["change"])
    def deactivate(self, request, queryset):
        def describe(endpoint):
            if not endpoint.active:
                return _("Already inactive: nothing changes.")
            return _(
                "No events are sent to %(url)s until it is reactivated; they wait and are sent "
                "after reactivation."
            ) % {"url": endpoint.url}

        return self.confirm_then_run(
            request,
            queryset,
            action="webhook_deactivate",
            title=_("Deactivate webhooks"),
            question=_("Deactivate these webhooks?"),
            describe=describe,
            run=lambda endpoint: webhook_update(endpoint=endpoint, active=False),
            done_message=_("Deactivated %(object)s."),
        )

    @admin.action(description=_("Reactivate selected webhooks"), permissions=["change"])
    def reactivate(self, request, queryset):
        def describe(endpoint):
            if endpoint.active:
                return _("Already active: nothing changes.")
            return _(
                "A test event is sent to %(url)s first; if the receiver accepts it, events are "
                "sent again, starting with those that waited, and the count of consecutive "
                "failures starts again from 0. If not, it stays deactivated."
            ) % {"url": endpoint.url}

        return self.confirm_then_run(
            request,
            queryset,
            action="webhook_reactivate",
            title=_("Reactivate webhooks"),
            question=_("Reactivate these webhooks?"),
            describe=describe,
            run=lambda endpoint: webhook_reactivate_after_test(endpoint=endpoint),
            done_message=_("Reactivated %(object)s."),
        )

    @admin.action(description=_("Send a test event"), permissions=["change"])
    def send_test_event(self, request, queryset):
        for endpoint in queryset:
            webhook_send_test_event(endpoint=endpoint)
        count = queryset.count()
        self.message_user(
            request,
            ngettext(
                "Test event queued for %(count)d webhook.",
                "Test event queued for %(count)d webhooks.",
                count,
            )
            % {"count": count},
            messages.SUCCESS,
        )

    # --- the webhook portal's pages -------------------------------------------------------

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
                "<path:object_id>/rotate_secret/",
                wrap(self.rotate_secret_view),
                name="{}_{}_rotate_secret".format(*info),
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
        previous_until = endpoint.previous_secret_expires_at
        if not endpoint.previous_secret_at(timezone.now()):
            previous_until = None
        return {
            "health": health,
            "previous_secret_until": format_brasilia(previous_until) if previous_until else "",
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

    # --- rolling the secret ---------------------------------------------------------------

    def rotate_secret_view(self, request, object_id):
        """GET: what a roll does, and for how long the previous secret keeps signing. POST:
        the roll, then the new secret, shown on this answer only (never stored for a later
        page, never in the history)."""
        endpoint = self._endpoint(request, object_id, change=True)
        context = {
            **self.admin_site.each_context(request),
            "title": _("Roll the signing secret of %(url)s") % {"url": endpoint.url},
            "subtitle": None,
            "opts": self.opts,
            "original": endpoint,
            "endpoint": endpoint,
            "endpoint_url": self._page_url(endpoint),
            "hours": PREVIOUS_SECRET_HOURS_DEFAULT,
            "max_hours": PREVIOUS_SECRET_HOURS_MAX,
            "hours_error": "",
        }
        request.current_app = self.admin_site.name
        template = "admin/webhooks/webhookendpoint/rotate_secret.html"
        if request.method == "GET":
            return TemplateResponse(request, template, context)
        if request.method != "POST":
            return HttpResponseNotAllowed(["GET", "POST"])
        typed = request.POST.get("hours", "").strip()
        hours = int(typed) if typed.isdigit() else -1
        if not 0 <= hours <= PREVIOUS_SECRET_HOURS_MAX:
            context["hours"] = typed
            context["hours_error"] = gettext("Type a whole number of hours from 0 to %(max)s.") % {
                "max": PREVIOUS_SECRET_HOURS_MAX
            }
            return TemplateResponse(request, template, context, status=400)
        rotated = {}

        def run(obj):
            rotated["endpoint"] = webhook_rotate_secret(
                endpoint=obj, expire_previous_in_hours=hours
            )

        audit_action(
            actor=request.user,
            obj=endpoint,
            action="webhook_rotate_secret",
            summary=self._rotation_summary(hours),
            run=run,
        )
        endpoint = rotated["endpoint"]
        context.update(
            {
                "title": _("New signing secret of %(url)s") % {"url": endpoint.url},
                "original": endpoint,
                "endpoint": endpoint,
                "new_secret": endpoint.secret,
                "previous_secret_until": (
                    format_brasilia(endpoint.previous_secret_expires_at)
                    if endpoint.previous_secret_expires_at
                    else ""
                ),
            }
        )
        # admin_view's never_cache: the answer is not stored, so the secret is on it only.
        return TemplateResponse(
            request, "admin/webhooks/webhookendpoint/secret_rotated.html", context
        )

    @staticmethod
    def _rotation_summary(hours: int) -> str:
        if not hours:
            return gettext("The previous secret stopped signing at once.")
        return ngettext(
            "The previous secret keeps signing for %(count)d hour.",
            "The previous secret keeps signing for %(count)d hours.",
            hours,
        ) % {"count": hours}
