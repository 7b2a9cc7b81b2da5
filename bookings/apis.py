from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.response import Response

from bookings.selectors import booking_get
from bookings.services import booking_create, booking_object
from core.apis import ApiView
from core.schema import IDEMPOTENCY_KEY_PARAMETER, error_response

BookingSerializer = inline_serializer(
    "Booking",
    {
        "id": serializers.CharField(),
        "booking_reference": serializers.CharField(),
        "status": serializers.ChoiceField(
            choices=["pending", "confirmed", "ticketed", "cancelled", "expired", "failed"]
        ),
        "type": serializers.ChoiceField(choices=["hold", "instant"]),
        "live_mode": serializers.BooleanField(),
        "synced_at": serializers.DateTimeField(allow_null=True),
        "created_at": serializers.DateTimeField(),
        "total_amount": serializers.CharField(),
        "total_currency": serializers.CharField(),
        "tax_amount": serializers.CharField(),
        "tax_currency": serializers.CharField(),
        "base_amount": serializers.CharField(),
        "base_currency": serializers.CharField(),
        "owner": serializers.DictField(),
        "slices": serializers.ListField(child=serializers.DictField()),
        "passengers": serializers.ListField(child=serializers.DictField()),
        "documents": serializers.ListField(child=serializers.DictField()),
        "conditions": serializers.DictField(),
        "payment_status": serializers.DictField(),
        "metadata": serializers.DictField(),
    },
)


class BookingCreateApi(ApiView):
    @extend_schema(
        operation_id="bookings_create",
        tags=["Bookings"],
        parameters=[IDEMPOTENCY_KEY_PARAMETER],
        request=inline_serializer(
            "BookingCreateInput",
            {
                "offerId": serializers.CharField(),
                "type": serializers.ChoiceField(choices=["hold", "instant"]),
                "passengers": serializers.ListField(child=serializers.DictField()),
                "payments": serializers.ListField(child=serializers.DictField(), required=False),
                "metadata": serializers.DictField(required=False),
            },
        ),
        responses={
            201: BookingSerializer,
            400: error_response(
                "Offer expired, Invalid passenger data, Passport required, Payment amount mismatch"
            ),
            404: error_response("Offer not found"),
            409: error_response("Offer already booked"),
            422: error_response("Insufficient balance"),
            502: error_response("Supplier error"),
        },
    )
    def post(self, request):
        body = request.data if isinstance(request.data, dict) else {}
        booking = booking_create(
            team=request.user.team,
            live_mode=request.user.live_mode,
            offer_id=str(body.get("offerId") or ""),
            type=body.get("type"),
            passengers=body.get("passengers"),
            payments=body.get("payments"),
            metadata=body.get("metadata"),
        )
        return Response(booking_object(booking), status=201)


class BookingDetailApi(ApiView):
    @extend_schema(
        operation_id="bookings_get",
        tags=["Bookings"],
        responses={200: BookingSerializer, 404: error_response("Booking not found")},
    )
    def get(self, request, booking_id):
        booking = booking_get(
            team=request.user.team, live_mode=request.user.live_mode, booking_id=booking_id
        )
        return Response(booking_object(booking))
