"""A delivery's pages in the panel: the list, and a delivery's page with its attempts and a
"redeliver" button; read through the admin's team-scoped queryset, like the endpoints'."""

from django.contrib import admin, messages
from django.contrib.admin.utils import unquote
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponseNotAllowed, HttpResponseRedirect
from django.urls import path, reverse
from django.utils.html import format_html_join
from django.utils.translation import gettext as _t
from django.utils.translation import gettext_lazy as _
from django.utils.translation import gettext_noop, ngettext

from core.audit import audit_action
from panel.admin import ReadOnlyAdmin, TeamScopedAdmin, live_mode_filter, status_label
from panel.roles import Area
from webhooks.models import Delivery, DeliveryAttempt
from webhooks.services import delivery_redeliver

# The services' messages these pages show (the API's English is the msgid, as in
# panel/messages.py).
PANEL_MESSAGES = [
    gettext_noop("Delivery not found"),
]


def delivery_status(delivery: Delivery) -> str:
    return status_label(delivery.status, delivery.get_status_display())


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
class DeliveryAdmin(TeamScopedAdmin, ReadOnlyAdmin):
    """A delivery's page: its payload and every attempt, and a "redeliver" button."""

    panel_area = Area.DEVELOPERS

    change_form_template = "admin/webhooks/delivery/change_form.html"
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
        # Sends again what the receiver got: the developers' area's to change, not a reader's.
        return self.has_view_permission(request) and self.may_change_area(request)

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

    # --- the redeliver button -------------------------------------------------------------

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
