"""An offer's extras: its extra bags (available services) and its seat maps, priced for the
team (docs/extras.md)."""

from django.utils import timezone
from drf_spectacular.utils import OpenApiExample, extend_schema
from rest_framework import serializers

from api.apis import ApiView, envelope
from api.schema import enveloped, error_response
from core.exceptions import InvalidRequest, NotFound
from flights import services_extras
from flights.selectors import BookableOffer, bookable_offer
from flights.services_extras import SERVICE_TYPES
from flights.suppliers import supplier_for, supplier_for_booking


class ExtrasOfferNotFound(NotFound):
    code = "offer_not_found"
    message = "Offer not found"


class ExtrasOfferExpired(InvalidRequest):
    code = "offer_expired"
    message = "Offer expired"


class _OfferAt:
    """What `supplier_for_booking` reads of the offer's supplier."""

    def __init__(self, offer: BookableOffer, team, live_mode: bool):
        self.supplier, self.team, self.live_mode = offer.supplier, team, live_mode


def offer_for_extras(request, offer_id: str) -> BookableOffer:
    team, live_mode = request.user.team, request.user.live_mode
    offer = bookable_offer(team=team, live_mode=live_mode, offer_id=offer_id)
    if offer is None:
        raise ExtrasOfferNotFound()
    if offer.expires_at <= timezone.now():
        raise ExtrasOfferExpired()
    supplier_for(team=team, live_mode=live_mode)  # live mode without a supplier refuses here
    return offer


def offer_supplier(request, offer: BookableOffer):
    return supplier_for_booking(_OfferAt(offer, request.user.team, request.user.live_mode))


class AvailableServiceSerializer(serializers.Serializer):
    id = serializers.CharField(help_text="The supplier's service id (ase_…): buy it by this id.")
    type = serializers.ChoiceField(choices=SERVICE_TYPES)
    passenger_ids = serializers.ListField(child=serializers.CharField(), help_text="pas_… ids.")
    segment_ids = serializers.ListField(child=serializers.CharField(), help_text="seg_… ids.")
    maximum_quantity = serializers.IntegerField()
    total_amount = serializers.CharField(help_text="Price of one, in total_currency.")
    total_currency = serializers.CharField()
    base_cost_brl = serializers.CharField(
        help_text="What one costs the wallet: total_amount × the offer's locked exchange rate."
    )
    client_amount = serializers.CharField(
        help_text="The customer's price of one: base_cost_brl + the team's markup (no fee)."
    )
    client_currency = serializers.CharField(default="BRL")
    metadata = serializers.DictField(
        help_text="As the supplier gives it: a bag's type, maximum_weight_kg and dimensions."
    )


class SeatServiceSerializer(serializers.Serializer):
    id = serializers.CharField()
    passenger_id = serializers.CharField()
    total_amount = serializers.CharField()
    total_currency = serializers.CharField()
    base_cost_brl = serializers.CharField()
    client_amount = serializers.CharField()
    client_currency = serializers.CharField(default="BRL")


class SeatMapElementSerializer(serializers.Serializer):
    type = serializers.CharField(
        help_text="seat, bassinet, empty, exit_row, lavatory, galley, closet, stairs."
    )
    designator = serializers.CharField(required=False, help_text="Seats: row and column (12C).")
    name = serializers.CharField(required=False)
    disclosures = serializers.ListField(child=serializers.CharField(), required=False)
    available_services = SeatServiceSerializer(
        many=True, required=False, help_text="One per passenger who may take it; empty: taken."
    )


class SeatMapSectionSerializer(serializers.Serializer):
    elements = SeatMapElementSerializer(many=True)


class SeatMapRowSerializer(serializers.Serializer):
    sections = SeatMapSectionSerializer(many=True)


class SeatMapCabinSerializer(serializers.Serializer):
    cabin_class = serializers.CharField()
    deck = serializers.IntegerField()
    aisles = serializers.IntegerField()
    wings = serializers.DictField(required=False)
    rows = SeatMapRowSerializer(many=True)


class SeatMapSerializer(serializers.Serializer):
    id = serializers.CharField()
    slice_id = serializers.CharField()
    segment_id = serializers.CharField()
    cabins = SeatMapCabinSerializer(many=True)


BAG_EXAMPLE = {
    "id": "ase_sbx3f9a1c0b7d2e4f6a8c1e",
    "type": "baggage",
    "passenger_ids": ["pas_01m84s0sqr83c1tmwt646fcae1"],
    "segment_ids": ["seg_01m84s0sqr83c1tmwt646fcae2"],
    "maximum_quantity": 3,
    "total_amount": "155.00",
    "total_currency": "BRL",
    "base_cost_brl": "155.00",
    "client_amount": "170.50",
    "client_currency": "BRL",
    "metadata": {
        "type": "checked",
        "maximum_weight_kg": 23,
        "maximum_length_cm": 80,
        "maximum_height_cm": 50,
        "maximum_depth_cm": 30,
    },
}
SEAT_MAP_EXAMPLE = {
    "id": "sea_sbx0c1d2e3f4a5b6c7d",
    "slice_id": "sli_01m84s0sqr83c1tmwt646fcae3",
    "segment_id": "seg_01m84s0sqr83c1tmwt646fcae2",
    "cabins": [
        {
            "cabin_class": "economy",
            "deck": 0,
            "aisles": 1,
            "wings": {"first_row_index": 4, "last_row_index": 12},
            "rows": [
                {
                    "sections": [
                        {
                            "elements": [
                                {
                                    "type": "seat",
                                    "designator": "12A",
                                    "name": "Extra legroom",
                                    "disclosures": ["Do not seat children in exit row seats"],
                                    "available_services": [
                                        {
                                            "id": "ase_sbx9e8d7c6b5a4f3e2d1c0b",
                                            "passenger_id": "pas_01m84s0sqr83c1tmwt646fcae1",
                                            "total_amount": "161.00",
                                            "total_currency": "BRL",
                                            "base_cost_brl": "161.00",
                                            "client_amount": "177.10",
                                            "client_currency": "BRL",
                                        }
                                    ],
                                },
                                {
                                    "type": "seat",
                                    "designator": "12B",
                                    "name": "Extra legroom",
                                    "disclosures": ["Do not seat children in exit row seats"],
                                    "available_services": [],
                                },
                            ]
                        },
                        {"elements": [{"type": "exit_row"}]},
                    ]
                }
            ],
        }
    ],
}


class OfferAvailableServicesApi(ApiView):
    permission_resource = "flights"
    supplier_methods = ("GET",)  # waits on the flight supplier

    @extend_schema(
        operation_id="offers_available_services",
        tags=["Flights"],
        examples=[OpenApiExample("An extra checked bag", value=[BAG_EXAMPLE], response_only=True)],
        responses={
            200: enveloped(AvailableServiceSerializer(many=True), name="AvailableServiceList"),
            400: error_response("Offer expired"),
            404: error_response("Offer not found"),
            422: error_response("No flight supplier connected (live mode)"),
            502: error_response("Supplier error"),
        },
    )
    def get(self, request, offer_id):
        offer = offer_for_extras(request, offer_id)
        trip = services_extras.trip_of_offer(offer)
        services = offer_supplier(request, offer).offer_services(offer)
        return envelope(services_extras.services_list(trip, request.user.team, services))


class OfferSeatMapsApi(ApiView):
    permission_resource = "flights"
    supplier_methods = ("GET",)  # waits on the flight supplier

    @extend_schema(
        operation_id="offers_seat_maps",
        tags=["Flights"],
        examples=[OpenApiExample("One row", value=[SEAT_MAP_EXAMPLE], response_only=True)],
        responses={
            200: enveloped(SeatMapSerializer(many=True), name="SeatMapList"),
            400: error_response("Offer expired"),
            404: error_response("Offer not found"),
            422: error_response("No flight supplier connected (live mode)"),
            502: error_response("Supplier error"),
        },
    )
    def get(self, request, offer_id):
        offer = offer_for_extras(request, offer_id)
        trip = services_extras.trip_of_offer(offer)
        seat_maps = offer_supplier(request, offer).offer_seat_maps(offer)
        team = request.user.team
        return envelope([services_extras.seat_map_object(trip, team, m) for m in seat_maps])
