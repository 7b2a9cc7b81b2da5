from django.conf import settings
from django.core.validators import RegexValidator
from django.utils import timezone
from drf_spectacular.extensions import OpenApiSerializerExtension
from drf_spectacular.utils import extend_schema, extend_schema_serializer, inline_serializer
from rest_framework import exceptions, serializers

from api.apis import ApiView, envelope
from api.fields import QueryChoicesField
from api.pagination import PaginationFilterSerializer, paginate, paginate_by_cursor
from api.schema import IDEMPOTENCY_KEY_PARAMETER, enveloped, error_response, event_union
from api.serializers import FirstProblemSerializer
from api.versions import VERSIONS, request_version
from core.audit import audit_action
from core.rate_windows import over_limit
from core.timestamps import iso_utc
from webhooks.models import SUBSCRIBABLE_EVENT_TYPES, Event, WebhookEndpoint
from webhooks.payloads import event_object, webhook_object
from webhooks.selectors import (
    event_get,
    event_list,
    event_order,
    events_settled,
    webhook_get,
    webhook_list,
)
from webhooks.services import (
    webhook_create,
    webhook_delete,
    webhook_recover,
    webhook_rotate_secret,
    webhook_test_now,
    webhook_update,
)
from webhooks.services.endpoints import (
    PREVIOUS_SECRET_HOURS_DEFAULT,
    PREVIOUS_SECRET_HOURS_MAX,
    validate_events,
    validate_previous_secret_hours,
    validate_url,
)
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
    api_version = serializers.CharField(help_text="The API version its deliveries are in.")
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
        api_version = serializers.ChoiceField(
            choices=VERSIONS,
            required=False,
            help_text="Moves the webhook's deliveries to this API version from the next one on "
            "(docs/changelog.md): test the new shapes, then switch the receiver in place.",
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
                "api_version": endpoint.api_version,
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
    """An event exactly as it is delivered (`webhook_id` null: read here, not delivered),
    webhooks.payloads.event_object. In the schema: one of the event types' components, by
    `type` (EventSchema)."""


class EventSchema(OpenApiSerializerExtension):
    """The `Event` component: `oneOf` the subscribable types' delivery bodies with a
    discriminator on `type` (api.schema.event_union; the components themselves are written by
    api.schema.document_webhook_payloads)."""

    target_class = EventSerializer

    def map_serializer(self, auto_schema, direction):
        return event_union(EVENT_CHOICES)


class EventPaginationSerializer(serializers.Serializer):
    """The spec's `pagination` in page mode; `{limit, has_more}` with a cursor (no count)."""

    page = serializers.IntegerField(required=False, help_text="Page mode only.")
    limit = serializers.IntegerField()
    total = serializers.IntegerField(required=False, help_text="Page mode only.")
    pages = serializers.IntegerField(required=False, help_text="Page mode only.")
    has_more = serializers.BooleanField(
        help_text="More events lie further on: after this page (page mode, `starting_after`), "
        "or before it (`ending_before`)."
    )


CURSORS = ("starting_after", "ending_before")


class EventCursorField(serializers.CharField):
    """An event id of the key's team and mode (the event, validated): where a page starts."""

    def __init__(self, **kwargs):
        kwargs.setdefault("max_length", Event._meta.get_field("id").max_length)
        super().__init__(required=False, **kwargs)

    def run_validation(self, data=serializers.empty) -> Event:
        event_id = super().run_validation(data)
        user = self.context["user"]
        event = event_list(team=user.team, live_mode=user.live_mode).filter(pk=event_id).first()
        if event is None:
            raise serializers.ValidationError("No such event for this key's team and mode.")
        return event


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
        order = serializers.ChoiceField(
            choices=["desc", "asc"],
            default="desc",
            help_text="`desc` (default): newest first; `asc`: oldest first, for catching up.",
        )
        starting_after = EventCursorField(
            help_text="An event id: the events that follow it in this order (the next page). "
            "Not with `page` or `ending_before`."
        )
        ending_before = EventCursorField(
            help_text="An event id: the events that precede it in this order, nearest first "
            "in the page's order (the previous page). Not with `page` or `starting_after`."
        )

        def validate(self, attrs):
            cursors = [name for name in CURSORS if name in attrs]
            if len(cursors) == 2:
                raise serializers.ValidationError(
                    {"ending_before": ["Cannot be combined with starting_after."]}
                )
            if cursors and "page" in self.initial_data:
                raise serializers.ValidationError(
                    {"page": [f"Cannot be combined with {cursors[0]}."]}
                )
            return attrs

    @extend_schema(
        operation_id="events_list",
        summary="List events",
        description=(
            "The team's events of the key's mode, newest first (`order=asc`: oldest first), "
            "each exactly as it is delivered. Pages by `page`, or by cursor: `starting_after` "
            "the last event read (`has_more` says whether more follow). A catch-up with "
            "`order=asc` and `starting_after` misses no event and repeats none, even while "
            "events are being recorded: with `order=asc` or a cursor, an event is listed once "
            "every transaction that began writing before it has ended. Events are kept "
            "`EVENTS_RETENTION_DAYS` (30) days; older ones are not listed."
        ),
        tags=["Events"],
        parameters=[FilterSerializer],
        responses={
            200: enveloped(
                serializers.ListField(child=EventSerializer()),
                name="EventListEnvelope",
                pagination=EventPaginationSerializer(),
            ),
            400: error_response("Invalid request parameters"),
        },
    )
    def get(self, request):
        params = self.FilterSerializer(data=request.query_params, context={"user": request.user})
        params.is_valid(raise_exception=True)
        data = params.validated_data
        ascending = data["order"] == "asc"
        oldest = timezone.now() - recovery_window()
        queryset = event_list(
            team=request.user.team,
            live_mode=request.user.live_mode,
            types=data.get("type"),
            created_after=max(data.get("created_after") or oldest, oldest),
            created_before=data.get("created_before"),
            ascending=ascending,
        )
        cursors = {name: data[name] for name in CURSORS if name in data}
        if ascending or cursors:
            # A list read on from where it stopped: only what no late commit can precede. The
            # default newest-first page shows every committed event at once, as it always has.
            queryset = events_settled(queryset)
        if cursors:
            items, pagination = paginate_by_cursor(
                queryset, order=event_order(ascending=ascending), limit=data["limit"], **cursors
            )
        else:
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


# --- Rolling the secret, testing the receiver --------------------------------------------------


class PreviousSecretHoursField(serializers.IntegerField):
    """A JSON integer from 0 to 168 exactly (DRF's IntegerField also takes "24" and 24.5);
    absent: the default."""

    def __init__(self, **kwargs):
        kwargs.setdefault("min_value", 0)
        kwargs.setdefault("max_value", PREVIOUS_SECRET_HOURS_MAX)
        super().__init__(**kwargs)

    def run_validation(self, data=serializers.empty) -> int:
        if data is serializers.empty:
            return PREVIOUS_SECRET_HOURS_DEFAULT
        if isinstance(data, float) and data.is_integer():
            data = int(data)  # 24.0 is JSON's integer 24
        return validate_previous_secret_hours(data)


class WebhookRotateSecretApi(ApiView):
    permission_resource = "webhooks"

    @extend_schema_serializer(component_name="WebhookRotateSecret")
    class InputSerializer(FirstProblemSerializer):
        expire_previous_in_hours = PreviousSecretHoursField(
            required=False,
            help_text="How long the secret being replaced keeps signing deliveries beside the "
            f"new one, in hours: 0 to {PREVIOUS_SECRET_HOURS_MAX}, "
            f"{PREVIOUS_SECRET_HOURS_DEFAULT} when absent; 0 stops it at once.",
        )

    @extend_schema(
        operation_id="webhooks_rotate_secret",
        tags=["Webhooks"],
        parameters=[IDEMPOTENCY_KEY_PARAMETER],
        request=InputSerializer,
        responses={
            200: enveloped(
                inline_serializer(
                    "WebhookSecretRotated",
                    {
                        "id": serializers.CharField(),
                        "secret": serializers.CharField(
                            help_text="The new whsec_…; shown only in this response."
                        ),
                        "previous_secret_expires_at": serializers.DateTimeField(
                            allow_null=True,
                            help_text="Until when deliveries also carry "
                            "X-Service-Signature-Previous; null: the previous secret no "
                            "longer signs.",
                        ),
                        "rotated_at": serializers.DateTimeField(),
                    },
                ),
                name="WebhookSecretRotatedEnvelope",
            ),
            400: error_response("Invalid request parameters"),
            404: error_response("Webhook not found"),
        },
    )
    def post(self, request, webhook_id):
        endpoint = webhook_get(
            team=request.user.team, live_mode=request.user.live_mode, webhook_id=webhook_id
        )
        body = self.InputSerializer(data=_body(request))
        body.is_valid(raise_exception=True)
        hours = body.validated_data["expire_previous_in_hours"]
        rotated = {}

        def run(obj):
            rotated["endpoint"] = webhook_rotate_secret(
                endpoint=obj, expire_previous_in_hours=hours
            )

        # The entry's label says it all, in the reader's language (the API writes no words);
        # the new expiry of the previous secret is among its changes.
        audit_action(
            actor=None, obj=endpoint, action="webhook_rotate_secret_api", summary="", run=run
        )
        endpoint = rotated["endpoint"]
        return envelope(
            {
                "id": endpoint.id,
                "secret": endpoint.secret,
                "previous_secret_expires_at": iso_utc(endpoint.previous_secret_expires_at),
                "rotated_at": iso_utc(endpoint.secret_rotated_at),
            }
        )


class WebhookTestApi(ApiView):
    permission_resource = "webhooks"

    @extend_schema(
        operation_id="webhooks_test",
        tags=["Webhooks"],
        parameters=[IDEMPOTENCY_KEY_PARAMETER],
        request=None,
        responses={
            200: enveloped(
                inline_serializer(
                    "WebhookTested",
                    {
                        "id": serializers.CharField(help_text="The webhook's id."),
                        "event_id": serializers.CharField(help_text="The test event's evt_…"),
                        "status": serializers.ChoiceField(
                            choices=["succeeded", "failed"],
                            help_text="succeeded: the receiver answered 2xx within 5 s.",
                        ),
                        "response_status": serializers.IntegerField(
                            allow_null=True, help_text="The receiver's HTTP status; null: none."
                        ),
                        "response_body_excerpt": serializers.CharField(
                            allow_blank=True,
                            help_text="The first 500 characters of the receiver's answer.",
                        ),
                        "latency_ms": serializers.IntegerField(
                            help_text="From sending to the end of the answer (or the error)."
                        ),
                        "error": serializers.CharField(
                            allow_null=True,
                            help_text="Why it failed (as in the panel's attempt log); null "
                            "when it succeeded.",
                        ),
                        "attempted_at": serializers.DateTimeField(),
                    },
                ),
                name="WebhookTestedEnvelope",
            ),
            404: error_response("Webhook not found"),
            429: error_response(
                "`rate_limited`: more than API_WEBHOOK_TEST_RATE_LIMIT (5) test events a minute "
                "to this webhook; or `probe_in_progress`: a probe or test of the team is "
                "running. Retry after `Retry-After` seconds."
            ),
        },
    )
    def post(self, request, webhook_id):
        endpoint = webhook_get(
            team=request.user.team, live_mode=request.user.live_mode, webhook_id=webhook_id
        )
        # Each test is a real request to the receiver: a few a minute per webhook.
        wait = over_limit(f"webhook-test:{endpoint.pk}", settings.API_WEBHOOK_TEST_RATE_LIMIT)
        if wait is not None:
            raise exceptions.Throttled(wait=wait)
        attempt = webhook_test_now(endpoint=endpoint, sent_from="api")
        return envelope(
            {
                "id": endpoint.id,
                "event_id": attempt.delivery.event_id,
                "status": "succeeded" if attempt.succeeded else "failed",
                "response_status": attempt.status_code,
                "response_body_excerpt": attempt.response_excerpt,
                "latency_ms": attempt.duration_ms,
                "error": attempt.error or None,
                "attempted_at": iso_utc(attempt.attempted_at),
            }
        )
