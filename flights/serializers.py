"""What the search answers, typed for the OpenAPI schema; bookings reuse the offer's parts
(flights/payloads.py builds the answers; the body a search takes is the InputSerializer of
flights/apis.py)."""

from rest_framework import serializers

from flights.models import BaggageType, LocationType, PassengerType
from flights.suppliers.base import IDENTITY_DOCUMENT_TYPES


class PlaceSerializer(serializers.Serializer):
    iata_code = serializers.CharField()
    name = serializers.CharField()
    city_name = serializers.CharField()
    iata_city_code = serializers.CharField()
    time_zone = serializers.CharField()


class SegmentEndSerializer(serializers.Serializer):
    iata_code = serializers.CharField()
    name = serializers.CharField()
    terminal = serializers.CharField(allow_null=True)


class CarrierSerializer(serializers.Serializer):
    iata_code = serializers.CharField()
    name = serializers.CharField()


class OperatingCarrierSerializer(CarrierSerializer):
    logo_symbol_url = serializers.URLField(allow_null=True)


class AircraftSerializer(serializers.Serializer):
    iata_code = serializers.CharField()
    name = serializers.CharField()


class BaggageSerializer(serializers.Serializer):
    type = serializers.ChoiceField(choices=BaggageType.values)
    quantity = serializers.IntegerField()


class SegmentPassengerSerializer(serializers.Serializer):
    passenger_id = serializers.CharField()
    cabin_class = serializers.CharField()
    cabin_class_marketing_name = serializers.CharField()
    fare_basis_code = serializers.CharField()
    baggages = BaggageSerializer(many=True)


class SegmentSerializer(serializers.Serializer):
    id = serializers.CharField()
    origin = SegmentEndSerializer()
    destination = SegmentEndSerializer()
    departing_at = serializers.CharField(help_text="Local time at the origin, no offset.")
    arriving_at = serializers.CharField(help_text="Local time at the destination, no offset.")
    operating_carrier = OperatingCarrierSerializer()
    marketing_carrier = CarrierSerializer()
    operating_carrier_flight_number = serializers.CharField()
    marketing_carrier_flight_number = serializers.CharField()
    aircraft = AircraftSerializer()
    duration = serializers.CharField(help_text="ISO 8601 duration, e.g. PT2H35M.")
    distance = serializers.CharField(help_text="Kilometres, decimal string.")
    passengers = SegmentPassengerSerializer(many=True)


class SliceSerializer(serializers.Serializer):
    id = serializers.CharField()
    origin = PlaceSerializer()
    destination = PlaceSerializer()
    duration = serializers.CharField()
    fare_brand_name = serializers.CharField()
    segments = SegmentSerializer(many=True)


class OfferPassengerSerializer(serializers.Serializer):
    id = serializers.CharField()
    type = serializers.ChoiceField(choices=PassengerType.values)
    fare_brand_name = serializers.CharField(allow_null=True)
    loyalty_programme_accounts = serializers.ListField(child=serializers.DictField())


class ConditionSerializer(serializers.Serializer):
    allowed = serializers.BooleanField()
    penalty_amount = serializers.CharField(allow_null=True)
    penalty_currency = serializers.CharField(allow_null=True)


class ConditionsSerializer(serializers.Serializer):
    refund_before_departure = ConditionSerializer()
    change_before_departure = ConditionSerializer()


class PaymentRequirementsSerializer(serializers.Serializer):
    requires_instant_payment = serializers.BooleanField()
    price_guarantee_expires_at = serializers.DateTimeField(allow_null=True)
    payment_required_by = serializers.DateTimeField(allow_null=True)


class OfferSerializer(serializers.Serializer):
    id = serializers.CharField()
    total_amount = serializers.CharField(help_text="Airline currency.")
    total_currency = serializers.CharField()
    base_amount = serializers.CharField()
    tax_amount = serializers.CharField()
    client_amount = serializers.CharField(help_text="base_cost_brl + markup + fee, in BRL.")
    client_currency = serializers.CharField()
    original_amount = serializers.FloatField()
    original_currency = serializers.CharField()
    exchange_rate_used = serializers.FloatField(
        help_text="BRL per unit of total_currency: fx_reference_rate × (1 + fx_margin_percent "
        "/ 100), 8 decimals at most (1 for BRL)."
    )
    fx_reference_rate = serializers.FloatField(
        help_text="The reference rate, BRL per unit of total_currency (the Banco Central PTAX "
        "selling rate, or the configured table), before the FX margin (1 for BRL)."
    )
    fx_margin_percent = serializers.CharField(
        help_text="The cost of foreign exchange (bank spread, IOF) added to the reference rate, "
        'a percentage with two decimals ("2.50"); "0.00" for BRL.'
    )
    base_cost_brl = serializers.CharField()
    agency_markup_percent = serializers.FloatField()
    agency_markup_amount = serializers.CharField()
    agency_fee_amount = serializers.CharField()
    total_agency_commission = serializers.CharField()
    markup_applied = serializers.CharField()
    fee_applied = serializers.CharField()
    expires_at = serializers.DateTimeField()
    owner = CarrierSerializer()
    slices = SliceSerializer(many=True)
    passengers = OfferPassengerSerializer(many=True)
    conditions = ConditionsSerializer()
    payment_requirements = PaymentRequirementsSerializer()
    passenger_identity_documents_required = serializers.BooleanField(
        help_text="The airline's rule (Duffel's name): true, every passenger must carry an "
        "identity document of one of allowed_passenger_identity_document_types when booked."
    )
    allowed_passenger_identity_document_types = serializers.ListField(
        child=serializers.ChoiceField(choices=list(IDENTITY_DOCUMENT_TYPES)),
        help_text="The identity document types the airline takes for this offer (Duffel's "
        "name); a passenger's document of another type is kept but not sent to the airline. "
        "Empty: none is sent.",
    )


class RequestedSliceSerializer(serializers.Serializer):
    origin = PlaceSerializer()
    destination = PlaceSerializer()
    departure_date = serializers.DateField()
    origin_type = serializers.ChoiceField(choices=LocationType.values)
    destination_type = serializers.ChoiceField(choices=LocationType.values)


class SearchResultSerializer(serializers.Serializer):
    id = serializers.CharField()
    offers = OfferSerializer(many=True)
    slices = RequestedSliceSerializer(many=True)
    passengers = OfferPassengerSerializer(many=True)
