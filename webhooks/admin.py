"""The panel's webhook pages: agency users see their team's endpoints and every delivery's
attempts, reactivate an endpoint, redeliver an event and send a test event; support staff see
all teams. Every action goes through the same services as the API."""

from django import forms
from django.contrib import admin, messages
from django.utils.formats import localize
from django.utils.html import format_html, format_html_join
from django.utils.text import capfirst
from django.utils.timezone import localtime
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext, pgettext_lazy

from panel.admin import (
    ReadOnlyAdmin,
    TeamScopedAdmin,
    admin_url,
    live_mode_filter,
    related_rows,
    status_label,
)
from webhooks.models import (
    SUBSCRIBABLE_EVENT_TYPES,
    Delivery,
    DeliveryAttempt,
    Event,
    WebhookEndpoint,
)
from webhooks.portal_admin import DeliveryPortalMixin, WebhookPortalMixin
from webhooks.services import (
    delivery_redeliver,
    webhook_delete,
    webhook_reactivate_after_test,
    webhook_send_test_event,
    webhook_update,
)


@admin.register(Event)
class EventAdmin(TeamScopedAdmin, ReadOnlyAdmin):
    list_display = ["id", "type", "team", "created_at"]
    list_filter = [live_mode_filter(), "type", "team"]
    search_fields = ["id", "type"]
    date_hierarchy = "created_at"
    list_select_related = ["team"]


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


RECENT_DELIVERIES = 20  # shown on a webhook's page; the rest are one click away


def delivery_status(delivery: Delivery) -> str:
    return status_label(delivery.status, delivery.get_status_display())


@admin.register(WebhookEndpoint)
class WebhookEndpointAdmin(WebhookPortalMixin, TeamScopedAdmin):
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


class AttemptInline(admin.TabularInline):
    """Bounded: six automatic attempts, plus the few redeliveries someone asks for."""

    model = DeliveryAttempt
    readonly_fields = [
        "number",
        "attempted_at",
        "outcome",
        "status_code",
        "duration_ms",
        "error",
        "response_excerpt",
        "request_headers",
    ]
    fields = [*readonly_fields]
    extra = 0
    max_num = 0
    can_delete = False

    @admin.display(description=_("outcome"))
    def outcome(self, obj):
        if obj.succeeded:
            return status_label("succeeded", _("Succeeded"))
        return status_label("failed", _("Failed"))


@admin.register(Delivery)
class DeliveryAdmin(DeliveryPortalMixin, TeamScopedAdmin, ReadOnlyAdmin):
    team_field = "endpoint__team"
    list_display = [
        "event_id",
        "event_type",
        "endpoint",
        "status_display",
        "attempt_count",
        "created_at",
    ]
    list_filter = [live_mode_filter("endpoint__live_mode"), "status", "event__type"]
    search_fields = ["event__id", "endpoint__url", "endpoint__id"]
    list_select_related = ["event", "endpoint"]
    readonly_fields = [
        "event",
        "endpoint",
        "status_display",
        "attempt_count",
        "next_attempt_at",
        "created_at",
        "payload",
    ]
    fields = [*readonly_fields]
    inlines = [AttemptInline]
    actions = ["redeliver"]

    @admin.display(description=_("event type"), ordering="event__type")
    def event_type(self, obj):
        return obj.event.type

    @admin.display(description=_("status"), ordering="status")
    def status_display(self, obj):
        return delivery_status(obj)

    @admin.display(description=_("payload (data.object)"))
    def payload(self, obj):
        rows = sorted(obj.event.data_object.items())
        return format_html_join("", "<div><code>{}</code>: {}</div>", rows)

    def has_change_permission(self, request, obj=None):
        # Viewing only; the change page is where the attempts are read.
        return False

    def has_redeliver_permission(self, request):
        return self.has_view_permission(request)

    @admin.action(description=_("Redeliver selected events"), permissions=["redeliver"])
    def redeliver(self, request, queryset):
        for delivery in queryset:
            delivery_redeliver(delivery=delivery)
        count = queryset.count()
        self.message_user(
            request,
            ngettext(
                "Queued %(count)d delivery again.", "Queued %(count)d deliveries again.", count
            )
            % {"count": count},
            messages.SUCCESS,
        )
