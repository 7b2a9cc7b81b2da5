"""OpenAPI pieces shared by every app: the Bearer scheme, the error body, envelopes."""

from drf_spectacular.extensions import OpenApiAuthenticationExtension
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse
from rest_framework import serializers


class ApiKeyAuthenticationScheme(OpenApiAuthenticationExtension):
    target_class = "core.authentication.ApiKeyAuthentication"
    name = "bearerAuth"

    def get_security_definition(self, auto_schema):
        return {
            "type": "http",
            "scheme": "bearer",
            "bearerFormat": "sk_test_… (sandbox) or sk_live_…",
        }


class ErrorDetailSerializer(serializers.Serializer):
    code = serializers.CharField()
    message = serializers.CharField()
    details = serializers.JSONField(allow_null=True)


class ErrorSerializer(serializers.Serializer):
    success = serializers.BooleanField(default=False)
    error = ErrorDetailSerializer()


def error_response(description: str) -> OpenApiResponse:
    return OpenApiResponse(ErrorSerializer, description=description)


IDEMPOTENCY_KEY_PARAMETER = OpenApiParameter(
    name="Idempotency-Key",
    location=OpenApiParameter.HEADER,
    required=False,
    description="Retry-safe key (up to 255 characters). The same key with the same request "
    "replays the first response for 24 h; with a different request, or while the first is "
    "still running, the answer is 409.",
)


def enveloped(serializer, *, name: str, **extra_fields):
    """A `{success, data: <serializer>}` component named `name` (plus any extra fields).
    `serializer` is a serializer class or instance (e.g. an `inline_serializer`)."""
    data = serializer if isinstance(serializer, serializers.Field) else serializer()
    fields = {"success": serializers.BooleanField(default=True), "data": data, **extra_fields}
    return type(name, (serializers.Serializer,), fields)
