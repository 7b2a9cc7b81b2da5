from drf_spectacular.utils import extend_schema, extend_schema_serializer, inline_serializer
from rest_framework import serializers

from core.apis import ApiView, envelope
from core.schema import IDEMPOTENCY_KEY_PARAMETER, enveloped, error_response
from core.timestamps import iso_utc
from webhooks.models import SUBSCRIBABLE_EVENT_TYPES, WebhookEndpoint
from webhooks.selectors import webhook_get, webhook_list
from webhooks.services import webhook_create, webhook_delete, webhook_update

EVENT_CHOICES = sorted(SUBSCRIBABLE_EVENT_TYPES)


def webhook_object(endpoint: WebhookEndpoint) -> dict:
    """The list shape (never the secret)."""
    return {
        "id": endpoint.id,
        "url": endpoint.url,
        "events": endpoint.events,
        "active": endpoint.active,
        "created_at": iso_utc(endpoint.created_at),
        "last_triggered_at": iso_utc(endpoint.last_triggered_at),
        "success_rate": endpoint.success_rate,
        "total_deliveries": endpoint.total_deliveries,
        "failed_deliveries": endpoint.failed_deliveries,
    }


def _body(request) -> dict:
    return request.data if isinstance(request.data, dict) else {}


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


class WebhookCreatedSerializer(serializers.Serializer):
    id = serializers.CharField()
    url = serializers.URLField()
    events = serializers.ListField(child=serializers.ChoiceField(choices=EVENT_CHOICES))
    active = serializers.BooleanField()
    secret = serializers.CharField(help_text="whsec_…; shown only in this response.")


class WebhookUpdatedSerializer(serializers.Serializer):
    id = serializers.CharField()
    url = serializers.URLField()
    events = serializers.ListField(child=serializers.ChoiceField(choices=EVENT_CHOICES))
    active = serializers.BooleanField()
    updated_at = serializers.DateTimeField()


class WebhookListApi(ApiView):
    @extend_schema_serializer(component_name="WebhookCreate")
    class InputSerializer(serializers.Serializer):
        url = serializers.URLField(help_text="HTTPS, publicly reachable, answers 2xx within 5 s.")
        events = serializers.ListField(child=serializers.ChoiceField(choices=EVENT_CHOICES))

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
        },
    )
    def post(self, request):
        body = _body(request)
        endpoint = webhook_create(
            team=request.user.team,
            live_mode=request.user.live_mode,
            url=body.get("url"),
            events=body.get("events"),
        )
        data = {
            "id": endpoint.id,
            "url": endpoint.url,
            "events": endpoint.events,
            "active": endpoint.active,
            "secret": endpoint.secret,
        }
        return envelope(data, status=201)


class WebhookDetailApi(ApiView):
    @extend_schema_serializer(component_name="WebhookUpdate")
    class InputSerializer(serializers.Serializer):
        url = serializers.URLField(required=False, help_text="Probed again when it changes.")
        events = serializers.ListField(
            child=serializers.ChoiceField(choices=EVENT_CHOICES), required=False
        )
        active = serializers.BooleanField(
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
        },
    )
    def put(self, request, webhook_id):
        endpoint = self._endpoint(request, webhook_id)
        body = _body(request)
        endpoint = webhook_update(
            endpoint=endpoint,
            url=body.get("url"),
            events=body.get("events"),
            active=body.get("active"),
        )
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
