"""The panel's webhook pages: agency users see their team's endpoints and every delivery's
attempts, reactivate an endpoint, redeliver an event and send a test event; support staff see
all teams. Every action goes through the same services as the API."""

from django import forms
from django.contrib import admin, messages
from django.urls import reverse
from django.utils.html import format_html, format_html_join

from core.admin import ReadOnlyAdmin, TeamScopedAdmin
from webhooks.models import (
    SUBSCRIBABLE_EVENT_TYPES,
    Delivery,
    DeliveryAttempt,
    Event,
    WebhookEndpoint,
)
from webhooks.services import (
    delivery_redeliver,
    webhook_delete,
    webhook_send_test_event,
    webhook_update,
)


@admin.register(Event)
class EventAdmin(TeamScopedAdmin, ReadOnlyAdmin):
    list_display = ["id", "type", "team", "live_mode", "created_at"]
    list_filter = ["type", "live_mode", "team"]
    search_fields = ["id"]
    date_hierarchy = "created_at"


class WebhookEndpointForm(forms.ModelForm):
    events = forms.MultipleChoiceField(
        choices=[(t, t) for t in sorted(SUBSCRIBABLE_EVENT_TYPES)],
        widget=forms.CheckboxSelectMultiple,
    )

    class Meta:
        model = WebhookEndpoint
        fields = ["events", "active"]


class DeliveryInline(admin.TabularInline):
    model = Delivery
    fields = ["delivery_link", "event_type", "status", "attempt_count", "next_attempt_at"]
    readonly_fields = fields
    extra = 0
    max_num = 0
    can_delete = False
    show_change_link = False
    verbose_name_plural = "recent deliveries"

    def get_queryset(self, request):
        return super().get_queryset(request).select_related("event").order_by("-created_at")

    @admin.display(description="Delivery")
    def delivery_link(self, obj):
        url = reverse("admin:webhooks_delivery_change", args=[obj.pk])
        return format_html('<a href="{}">{}</a>', url, obj.event_id)

    @admin.display(description="Event type")
    def event_type(self, obj):
        return obj.event.type


@admin.register(WebhookEndpoint)
class WebhookEndpointAdmin(TeamScopedAdmin):
    form = WebhookEndpointForm
    list_display = [
        "url",
        "team",
        "mode",
        "active",
        "deactivated_at",
        "consecutive_failures",
        "success_rate_display",
        "total_deliveries",
        "failed_deliveries",
        "last_triggered_at",
    ]
    list_filter = ["active", "live_mode", "team"]
    search_fields = ["url", "id"]
    readonly_fields = [
        "id",
        "team",
        "url",
        "live_mode",
        "consecutive_failures",
        "deactivated_at",
        "success_rate_display",
        "total_deliveries",
        "failed_deliveries",
        "last_triggered_at",
        "created_at",
        "updated_at",
    ]
    fields = [*readonly_fields[:4], "events", "active", *readonly_fields[4:]]
    inlines = [DeliveryInline]
    actions = ["reactivate", "send_test_event"]

    @admin.display(description="Mode")
    def mode(self, obj):
        return "live" if obj.live_mode else "test"

    @admin.display(description="Success rate")
    def success_rate_display(self, obj):
        return f"{obj.success_rate:.2f}%"

    def has_add_permission(self, request):
        return False  # created through the API, where the URL is probed and the secret shown

    def save_model(self, request, obj, form, change):
        saved = WebhookEndpoint.objects.get(pk=obj.pk)
        webhook_update(endpoint=saved, events=obj.events, active=obj.active)

    def delete_model(self, request, obj):
        webhook_delete(endpoint=obj)

    def delete_queryset(self, request, queryset):
        for endpoint in queryset:
            webhook_delete(endpoint=endpoint)

    @admin.action(description="Reactivate selected webhooks", permissions=["change"])
    def reactivate(self, request, queryset):
        inactive = [e for e in queryset if not e.active]
        for endpoint in inactive:
            webhook_update(endpoint=endpoint, active=True)
        self.message_user(request, f"Reactivated {len(inactive)} webhook(s).", messages.SUCCESS)

    @admin.action(description="Send a test event", permissions=["change"])
    def send_test_event(self, request, queryset):
        for endpoint in queryset:
            webhook_send_test_event(endpoint=endpoint)
        self.message_user(
            request, f"Test event queued for {queryset.count()} webhook(s).", messages.SUCCESS
        )


class AttemptInline(admin.TabularInline):
    model = DeliveryAttempt
    fields = [
        "number",
        "attempted_at",
        "succeeded",
        "status_code",
        "duration_ms",
        "error",
        "response_excerpt",
    ]
    readonly_fields = fields
    extra = 0
    max_num = 0
    can_delete = False


@admin.register(Delivery)
class DeliveryAdmin(TeamScopedAdmin, ReadOnlyAdmin):
    team_field = "endpoint__team"
    list_display = [
        "id",
        "event_type",
        "event_id",
        "endpoint",
        "status",
        "attempt_count",
        "next_attempt_at",
        "created_at",
    ]
    list_filter = ["status", "event__type", "endpoint__live_mode"]
    search_fields = ["event__id", "endpoint__url"]
    list_select_related = ["event", "endpoint"]
    readonly_fields = [
        "event",
        "endpoint",
        "status",
        "attempt_count",
        "next_attempt_at",
        "created_at",
        "payload",
    ]
    fields = readonly_fields
    inlines = [AttemptInline]
    actions = ["redeliver"]

    @admin.display(description="Event type")
    def event_type(self, obj):
        return obj.event.type

    @admin.display(description="Payload (data.object)")
    def payload(self, obj):
        rows = sorted(obj.event.data_object.items())
        return format_html_join("", "<div><code>{}</code>: {}</div>", rows)

    def has_change_permission(self, request, obj=None):
        # Viewing only; the change page is where the attempts are read.
        return False

    def has_redeliver_permission(self, request):
        return self.has_view_permission(request)

    @admin.action(description="Redeliver selected events", permissions=["redeliver"])
    def redeliver(self, request, queryset):
        for delivery in queryset:
            delivery_redeliver(delivery=delivery)
        self.message_user(
            request, f"Queued {queryset.count()} delivery(ies) again.", messages.SUCCESS
        )
