from django.core.validators import RegexValidator
from django.utils import timezone
from drf_spectacular.utils import extend_schema, extend_schema_serializer, inline_serializer
from rest_framework import serializers

from api.apis import ApiView, envelope
from api.fields import QueryChoicesField
from api.pagination import PaginationFilterSerializer, PaginationSerializer, paginate
from api.schema import IDEMPOTENCY_KEY_PARAMETER, enveloped, error_response
from api.serializers import FirstProblemSerializer
from api.versions import VERSIONS, request_version
from core.timestamps import iso_utc
from webhooks.models import SUBSCRIBABLE_EVENT_TYPES, WebhookEndpoint
from webhooks.payloads import event_object, webhook_object
from webhooks.selectors import event_get, event_list, webhook_get, webhook_list
from webhooks.services import webhook_create, webhook_delete, webhook_recover, webhook_update
from webhooks.services.endpoints import validate_events, validate_url
from webhooks.services.recovery import recovery_window

EVENT_CHOICES = sorted(SUBSCRIBABLE_EVENT_TYPES)
# The schema's pattern for webhook URLs (validate_url checks them: https, any case).
HTTPS_ONLY = RegexValidator(r"^[Hh][Tt][Tt][Pp][Ss]://")
PROBE_IN_PROGRESS = error_response(
    "`probe_in_progress`: another URL of the team is being probed (one probe at a time per "
    "team); retry after `Retry-After` seconds. Or `rate_limited` (see `Retry-After`)."
)


def _body(request) -> dict:
    return request.data if isinstance(request.data, dict) else {}


# A webhook's URL and events are checked by the same rules (webhooks.services.endpoints) for
# the API and the panel, with the same words (`invalid_url`, `invalid_events`).


class WebhookUrlField(serializers.URLField):
    """An HTTPS URL of at most the column's length (validate_url). Absent or null when not
    required: None (unchanged)."""

    def __init__(self, **kwargs):
        kwargs.setdefault("max_length", WebhookEndpoint._meta.get_field("url").max_length)
        kwargs.setdefault("validators", [HTTPS_ONLY])
        super().__init__(**kwargs)

    def run_validation(self, data=serializers.empty) -> str | None:
        if data is serializers.empty or data is None:
            return validate_url(None) if self.required else None
        return validate_url(data)


class WebhookEventsField(serializers.ListField):
    """A non-empty list of subscribable event types (validate_events: duplicates collapse).
    Absent or null when not required: None (unchanged)."""

    def __init__(self, **kwargs):
        kwargs.setdefault("child", serializers.ChoiceField(choices=EVENT_CHOICES))
        kwargs.setdefault("min_length", 1)
        super().__init__(**kwargs)

    def run_validation(self, data=serializers.empty) -> list[str] | None:
        if data is serializers.empty or data is None:
            return validate_events(None) if self.required else None
        return validate_events(data)


class OptionalBooleanField(serializers.BooleanField):
    """true or false exactly (DRF's BooleanField also takes "yes" and 1); absent or null: None."""

    def run_validation(self, data=serializers.empty) -> bool | None:
        if data is serializers.empty or data is None:
            return None
        if not isinstance(data, bool):
            raise serializers.ValidationError("Must be a boolean.")
        return data


class WebhookSerializer(serializers.Serializer):
    id = serializers.CharField()
    url = serializers.URLField()
    events = serializers.ListField(child=serializers.ChoiceField(choices=EVENT_CHOICES))
    active = serializers.BooleanField()
    created_at = serializers.DateTimeField()
    last_triggered_at = serializers.DateTimeField(allow_null=True)
    success_rate = serializers.FloatField(help_text="Attempts answered 2xx, percent.")
    total_deliveries = serializers.IntegerField(help_text="Attempts made.")
    failed_deliveries = serializers.IntegerField(help_text="Attempts that failed.")
    api_version = serializers.ChoiceField(
        choices=VERSIONS, help_text="The API version its deliveries are rendered in."
    )


class WebhookCreatedSerializer(serializers.Serializer):
    id = serializers.CharField()
    url = serializers.URLField()
    events = serializers.ListField(child=serializers.ChoiceField(choices=EVENT_CHOICES))
    active = serializers.BooleanField()
    secret = serializers.CharField(help_text="whsec_…; shown only in this response.")
    api_version = serializers.ChoiceField(
        choices=VERSIONS, help_text="The API version its deliveries are rendered in."
    )


class WebhookUpdatedSerializer(serializers.Serializer):
    id = serializers.CharField()
    url = serializers.URLField()
    events = serializers.ListField(child=serializers.ChoiceField(choices=EVENT_CHOICES))
    active = serializers.BooleanField()
    updated_at = serializers.DateTimeField()


class WebhookListApi(ApiView):
    permission_resource = "webhooks"

    @extend_schema_serializer(component_name="WebhookCreate")
    class InputSerializer(FirstProblemSerializer):
        url = WebhookUrlField(help_text="HTTPS, publicly reachable, answers 2xx within 5 s.")
        events = WebhookEventsField()
        api_version = serializers.ChoiceField(
            choices=VERSIONS,
            required=False,
            help_text="The API version to render its deliveries in; by default the team's.",
        )

    @extend_schema(
        operation_id="webhooks_list",
        tags=["Webhooks"],
        responses={
            200: enveloped(serializers.ListField(child=WebhookSerializer()), name="WebhookList")
        },
    )
    def get(self, request):
        endpoints = webhook_list(team=request.user.team, live_mode=request.user.live_mode)
        return envelope([webhook_object(e) for e in endpoints])

    @extend_schema(
        operation_id="webhooks_create",
        tags=["Webhooks"],
        parameters=[IDEMPOTENCY_KEY_PARAMETER],
        request=InputSerializer,
        responses={
            201: enveloped(WebhookCreatedSerializer, name="WebhookCreatedEnvelope"),
            400: error_response("Invalid URL, Invalid events"),
            409: error_response("URL already registered"),
            422: error_response("URL not reachable"),
            429: PROBE_IN_PROGRESS,
        },
    )
    def post(self, request):
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        endpoint = webhook_create(
            team=request.user.team, live_mode=request.user.live_mode, **serializer.validated_data
        )
        data = {
            "id": endpoint.id,
            "url": endpoint.url,
            "events": endpoint.events,
            "active": endpoint.active,
            "secret": endpoint.secret,
            "api_version": endpoint.api_version,
        }
        return envelope(data, status=201)


class WebhookDetailApi(ApiView):
    permission_resource = "webhooks"

    @extend_schema_serializer(component_name="WebhookUpdate")
    class InputSerializer(FirstProblemSerializer):
        url = WebhookUrlField(required=False, help_text="Probed again when it changes.")
        events = WebhookEventsField(required=False)
        active = OptionalBooleanField(
            required=False, help_text="true reactivates and resets the failure count."
        )

    def _endpoint(self, request, webhook_id):
        return webhook_get(
            team=request.user.team, live_mode=request.user.live_mode, webhook_id=webhook_id
        )

    @extend_schema(
        operation_id="webhooks_retrieve",
        tags=["Webhooks"],
        responses={
            200: enveloped(WebhookSerializer, name="WebhookEnvelope"),
            404: error_response("Webhook not found"),
        },
    )
    def get(self, request, webhook_id):
        return envelope(webhook_object(self._endpoint(request, webhook_id)))

    @extend_schema(
        operation_id="webhooks_update",
        tags=["Webhooks"],
        parameters=[IDEMPOTENCY_KEY_PARAMETER],
        request=InputSerializer,
        responses={
            200: enveloped(WebhookUpdatedSerializer, name="WebhookUpdatedEnvelope"),
            400: error_response("Invalid URL, Invalid events, Invalid request parameters"),
            404: error_response("Webhook not found"),
            409: error_response("URL already registered"),
            422: error_response("URL not reachable"),
            429: PROBE_IN_PROGRESS,
        },
    )
    def put(self, request, webhook_id):
        endpoint = self._endpoint(request, webhook_id)
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        endpoint = webhook_update(endpoint=endpoint, **serializer.validated_data)
        return envelope(
            {
                "id": endpoint.id,
                "url": endpoint.url,
                "events": endpoint.events,
                "active": endpoint.active,
                "updated_at": iso_utc(endpoint.updated_at),
            }
        )

    @extend_schema(
        operation_id="webhooks_delete",
        tags=["Webhooks"],
        parameters=[IDEMPOTENCY_KEY_PARAMETER],
        responses={
            200: enveloped(
                inline_serializer(
                    "WebhookDeleted",
                    {"id": serializers.CharField(), "deleted": serializers.BooleanField()},
                ),
                name="WebhookDeletedEnvelope",
            ),
            404: error_response("Webhook not found"),
        },
    )
    def delete(self, request, webhook_id):
        endpoint = self._endpoint(request, webhook_id)
        deleted_id = endpoint.id
        webhook_delete(endpoint=endpoint)
        return envelope({"id": deleted_id, "deleted": True})


# --- Events ------------------------------------------------------------------------------------


class EventSerializer(serializers.Serializer):
    """An event exactly as it is delivered (`webhook_id` null: read here, not delivered)."""

    id = serializers.CharField(help_text="evt_…")
    type = serializers.ChoiceField(choices=EVENT_CHOICES)
    api_version = serializers.CharField(help_text="API version date, YYYY-MM-DD.")
    created_at = serializers.DateTimeField()
    data = inline_serializer(  # type: ignore[assignment]  # field "data" shadows Serializer.data
        "EventData",
        {
            "object": serializers.DictField(help_text="The object as it was at the event."),
            "previous_attributes": serializers.DictField(
                help_text="Attributes that changed (update-type events)."
            ),
        },
    )
    team_id = serializers.CharField()
    webhook_id = serializers.CharField(allow_null=True)


class EventListApi(ApiView):
    permission_resource = "events"

    class FilterSerializer(PaginationFilterSerializer):
        type = QueryChoicesField(
            choices=EVENT_CHOICES,
            required=False,
            help_text="One event type or several, comma-separated.",
        )
        created_after = serializers.DateTimeField(
            required=False,
            help_text="ISO 8601 timestamp (UTC when no offset is given); inclusive.",
        )
        created_before = serializers.DateTimeField(
            required=False,
            help_text="ISO 8601 timestamp (UTC when no offset is given); exclusive.",
        )

    @extend_schema(
        operation_id="events_list",
        summary="List events",
        description=(
            "The team's events of the key's mode, newest first, each exactly as it is "
            "delivered to webhooks. Events are kept "
            "`EVENTS_RETENTION_DAYS` (30) days; older ones are not listed."
        ),
        tags=["Events"],
        parameters=[FilterSerializer],
        responses={
            200: enveloped(
                serializers.ListField(child=EventSerializer()),
                name="EventListEnvelope",
                pagination=PaginationSerializer(),
            ),
            400: error_response("Invalid request parameters"),
        },
    )
    def get(self, request):
        params = self.FilterSerializer(data=request.query_params)
        params.is_valid(raise_exception=True)
        data = params.validated_data
        oldest = timezone.now() - recovery_window()
        queryset = event_list(
            team=request.user.team,
            live_mode=request.user.live_mode,
            types=data.get("type"),
            created_after=max(data.get("created_after") or oldest, oldest),
            created_before=data.get("created_before"),
        )
        items, pagination = paginate(queryset, page=data["page"], limit=data["limit"])
        version = request_version(request._request)
        return envelope(
            [event_object(e, webhook_id=None, api_version=version) for e in items],
            pagination=pagination,
        )


class EventDetailApi(ApiView):
    permission_resource = "events"

    @extend_schema(
        operation_id="events_retrieve",
        summary="Read an event",
        description="One event of the team and mode of the key, exactly as it is delivered.",
        tags=["Events"],
        responses={
            200: enveloped(EventSerializer, name="EventEnvelope"),
            404: error_response("Event not found"),
        },
    )
    def get(self, request, event_id):
        event = event_get(
            team=request.user.team, live_mode=request.user.live_mode, event_id=event_id
        )
        return envelope(
            event_object(event, webhook_id=None, api_version=request_version(request._request))
        )


class WebhookRecoverApi(ApiView):
    permission_resource = "webhooks"

    @extend_schema_serializer(component_name="WebhookRecover")
    class InputSerializer(serializers.Serializer):
        since = serializers.DateTimeField(
            help_text="ISO 8601 timestamp; events created at or after it are delivered again "
            "(at most EVENTS_RETENTION_DAYS, 30 days, back)."
        )

    @extend_schema(
        operation_id="webhooks_recover",
        summary="Redeliver events since a moment",
        description=(
            "Delivers again, from the first attempt, every event of the webhook's subscribed "
            "types created since `since`, including those that happened while the webhook was "
            "disabled. The webhook must be active. Answers 202 with the number of events "
            "queued; receivers deduplicate by `X-Service-Event-Id`."
        ),
        tags=["Webhooks"],
        parameters=[IDEMPOTENCY_KEY_PARAMETER],
        request=InputSerializer,
        responses={
            202: enveloped(
                inline_serializer(
                    "WebhookRecovered",
                    {
                        "id": serializers.CharField(),
                        "since": serializers.DateTimeField(),
                        "queued": serializers.IntegerField(help_text="Events queued."),
                    },
                ),
                name="WebhookRecoveredEnvelope",
            ),
            400: error_response("Invalid request parameters"),
            404: error_response("Webhook not found"),
            409: error_response("Webhook inactive"),
        },
    )
    def post(self, request, webhook_id):
        endpoint = webhook_get(
            team=request.user.team, live_mode=request.user.live_mode, webhook_id=webhook_id
        )
        body = self.InputSerializer(data=_body(request))
        body.is_valid(raise_exception=True)
        since = body.validated_data["since"]
        queued = webhook_recover(endpoint=endpoint, since=since)
        return envelope({"id": endpoint.id, "since": iso_utc(since), "queued": queued}, status=202)
