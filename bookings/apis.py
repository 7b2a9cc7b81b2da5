from drf_spectacular.utils import extend_schema
from rest_framework.response import Response

from api.apis import ApiView, envelope
from api.fields import QueryChoicesField, QueryDateField
from api.pagination import PaginationParams, PaginationSerializer, paginate
from api.schema import IDEMPOTENCY_KEY_PARAMETER, enveloped, error_response
from bookings.models import Booking
from bookings.schemas import (
    CREATE_EXAMPLES,
    BookingConfirmedSerializer,
    BookingConfirmInput,
    BookingCreateInput,
    BookingListItemSerializer,
    BookingSerializer,
    CancelResultSerializer,
)
from bookings.selectors import booking_get, booking_list
from bookings.services import booking_cancel, booking_confirm, booking_create, booking_object
from bookings.validation import (
    validate_metadata,
)
from core.money import fmt
from core.timestamps import iso_utc


class BookingListParams(PaginationParams):
    status = QueryChoicesField(
        choices=Booking.Status.values,
        required=False,
        help_text=f"One state or several, comma-separated: {','.join(Booking.Status.values)}.",
    )
    created_after = QueryDateField(required=False)
    created_before = QueryDateField(required=False)


def list_item(booking) -> dict:
    first = booking.slices[0]["segments"][0]
    last = booking.slices[0]["segments"][-1]
    return {
        "id": booking.id,
        "booking_reference": booking.booking_reference,
        "status": booking.status,
        "total_amount": fmt(booking.total_amount),
        "currency": booking.total_currency,
        "created_at": iso_utc(booking.created_at),
        "client": {
            "id": booking.client.id,
            "full_name": booking.client.full_name,
            "email": booking.client.email,
        },
        "flight_summary": {
            "origin": first["origin"]["iata_code"],
            "destination": last["destination"]["iata_code"],
            "departure_date": first["departing_at"][:10],
            "airline": booking.owner["name"],
        },
    }


class BookingCreateApi(ApiView):
    @extend_schema(
        operation_id="bookings_list",
        tags=["Bookings"],
        parameters=[BookingListParams],
        responses={
            200: enveloped(
                BookingListItemSerializer(many=True),
                name="BookingListEnvelope",
                pagination=PaginationSerializer(),
            ),
            400: error_response("Invalid request parameters"),
        },
    )
    def get(self, request):
        params = BookingListParams(data=request.query_params)
        params.is_valid(raise_exception=True)
        data = params.validated_data
        queryset = booking_list(
            team=request.user.team,
            live_mode=request.user.live_mode,
            statuses=data.get("status"),
            created_after=data.get("created_after"),
            created_before=data.get("created_before"),
        )
        items, pagination = paginate(queryset, page=data["page"], limit=data["limit"])
        return envelope([list_item(b) for b in items], pagination=pagination)

    @extend_schema(
        operation_id="bookings_create",
        tags=["Bookings"],
        parameters=[IDEMPOTENCY_KEY_PARAMETER],
        request=BookingCreateInput,
        examples=CREATE_EXAMPLES,
        responses={
            201: BookingSerializer,
            400: error_response(
                "Offer expired, Invalid passenger data, Passport required, Payment amount mismatch"
            ),
            404: error_response("Offer not found"),
            409: error_response("Offer already booked"),
            422: error_response("Insufficient balance, No flight supplier connected (live mode)"),
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
            metadata=validate_metadata(body.get("metadata")),
            idempotency_key=request.headers.get("Idempotency-Key", ""),
        )
        return Response(booking_object(booking), status=201)


class BookingDetailApi(ApiView):
    @extend_schema(
        operation_id="bookings_cancel",
        tags=["Bookings"],
        parameters=[IDEMPOTENCY_KEY_PARAMETER],
        responses={
            200: enveloped(CancelResultSerializer, name="BookingCancelEnvelope"),
            404: error_response("Booking not found"),
            409: error_response("Booking already cancelled"),
        },
    )
    def delete(self, request, booking_id):
        booking = booking_get(
            team=request.user.team, live_mode=request.user.live_mode, booking_id=booking_id
        )
        booking, refund = booking_cancel(booking=booking)
        return envelope({"id": booking.id, "status": booking.status, "refund": refund})

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


class BookingConfirmApi(ApiView):
    @extend_schema(
        operation_id="bookings_confirm",
        tags=["Bookings"],
        parameters=[IDEMPOTENCY_KEY_PARAMETER],
        request=BookingConfirmInput,
        responses={
            200: enveloped(BookingConfirmedSerializer, name="BookingConfirmEnvelope"),
            400: error_response("Payment amount mismatch"),
            404: error_response("Booking not found"),
            409: error_response("Booking already confirmed"),
            422: error_response("Insufficient balance"),
        },
    )
    def put(self, request, booking_id):
        booking = booking_get(
            team=request.user.team, live_mode=request.user.live_mode, booking_id=booking_id
        )
        payment = request.data.get("payment") if isinstance(request.data, dict) else None
        booking = booking_confirm(booking=booking, payment=payment)
        booking = booking_get(
            team=request.user.team, live_mode=request.user.live_mode, booking_id=booking.id
        )  # ticketing may already have run
        return envelope(
            {
                "id": booking.id,
                "booking_reference": booking.booking_reference,
                "status": booking.status,
                "documents": [
                    {"type": d.type, "unique_identifier": d.unique_identifier}
                    for d in booking.documents.all()
                ],
            }
        )
