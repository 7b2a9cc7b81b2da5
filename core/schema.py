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


# Answers any operation can give, whatever it documents itself.
COMMON_ERRORS = {
    "401": "Unauthorized: no API key, or an unknown or revoked one",
    "429": "Too many requests for this API key (see the `Retry-After` header)",
}

IDEMPOTENCY_ERRORS = {
    "400": "Invalid request parameters (also an invalid `Idempotency-Key`)",
    "409": "The `Idempotency-Key` was used with a different request, or its first request is "
    "still running",
}


def document_common_errors(result, generator, request, public):
    """drf-spectacular postprocessing hook: add the common errors to every authenticated
    operation, with the one error shape, so clients and the fuzzer know them."""
    error_schema = {"$ref": "#/components/schemas/Error"}
    for methods in result.get("paths", {}).values():
        for operation in methods.values():
            if not isinstance(operation, dict) or not operation.get("security"):
                continue
            responses = operation.setdefault("responses", {})
            errors = dict(COMMON_ERRORS)
            if any(p.get("name") == "Idempotency-Key" for p in operation.get("parameters", [])):
                errors.update(IDEMPOTENCY_ERRORS)
            for status, description in errors.items():
                responses.setdefault(
                    status,
                    {
                        "description": description,
                        "content": {"application/json": {"schema": error_schema}},
                    },
                )
    return result
