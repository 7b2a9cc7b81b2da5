"""What the change API answers (bookings/change_apis.py), typed down to the leaves for the
OpenAPI schema: the ChangeRequest (`ocr_`) and its ChangeOffers (`oco_`)."""

from rest_framework import serializers

from bookings.serializers import BookingSliceSerializer, currency
from flights.models import CabinClass
from flights.suppliers.order_changes import CHANGE_REFUND_TO

SIGNED_DECIMAL = r"^-?[0-9]+\.[0-9]{2}$"  # ASCII digits


def signed_money(help_text: str, **kwargs) -> serializers.RegexField:
    return serializers.RegexField(
        SIGNED_DECIMAL, help_text=f"{help_text} Decimal string.", **kwargs
    )


class ChangeOfferSlicesSerializer(serializers.Serializer):
    add = BookingSliceSerializer(many=True, help_text="The slices the change adds.")
    remove = BookingSliceSerializer(many=True, help_text="The booking's slices it removes.")


class ChangeOfferSerializer(serializers.Serializer):
    id = serializers.CharField(help_text="oco_…: confirm it with POST /bookings/:id/changes.")
    slices = ChangeOfferSlicesSerializer()
    change_total_amount = signed_money(
        "What the change costs at the airline (fare difference plus penalty), in its currency; "
        "negative when the airline refunds the difference."
    )
    change_total_currency = currency()
    penalty_amount = signed_money("The airline's change penalty.", allow_null=True)
    penalty_currency = currency(allow_null=True)
    new_total_amount = signed_money("The booking's total_amount once changed.")
    new_total_currency = currency()
    refund_to = serializers.ChoiceField(
        choices=list(CHANGE_REFUND_TO),
        allow_null=True,
        help_text="Where a negative difference goes: balance, original_form_of_payment and "
        "arc_bsp_cash are cash (credited to the wallet); voucher and airline_credits are not "
        "(0.00 credited). Null when nothing is refunded.",
    )
    expires_at = serializers.DateTimeField(allow_null=True, help_text="Confirm it before this.")
    change_cost_brl = signed_money(
        "change_total_amount × exchange_rate_used (the booking's own rate), rounded as offers "
        "are: what the wallet is debited (positive) or, refunded in cash, credited (negative)."
    )
    client_change_amount = signed_money(
        "The agency's price of the change to its customer (docs/after-sale.md \"Pricing a "
        "change\"): the cost, the team's markup on a positive cost, and the team's fee."
    )
    client_currency = serializers.RegexField(r"^BRL$", help_text="Always BRL.")
    exchange_rate_used = serializers.FloatField(
        help_text="The booking's own rate (BRL per unit), the FX margin it was booked with "
        "already in it."
    )
    fx_reference_rate = serializers.FloatField(
        help_text="The reference rate the booking's rate was quoted from (BRL per unit), before "
        "its FX margin."
    )
    fx_margin_percent = serializers.CharField(
        help_text="The FX margin in the booking's rate (bank spread, IOF), a percentage with two "
        'decimals ("2.50"); "0.00" for a booking in BRL or booked without one.'
    )


class ChangeSliceSerializer(serializers.Serializer):
    origin = serializers.CharField()
    destination = serializers.CharField()
    departure_date = serializers.DateField()
    cabin_class = serializers.ChoiceField(choices=CabinClass.values)


class ChangeRemoveSerializer(serializers.Serializer):
    slice_id = serializers.CharField()


class ChangeRequestSlicesSerializer(serializers.Serializer):
    remove = ChangeRemoveSerializer(many=True)
    add = ChangeSliceSerializer(many=True)


class ChangeRequestSerializer(serializers.Serializer):
    id = serializers.CharField(help_text="ocr_…")
    booking_id = serializers.CharField()
    slices = ChangeRequestSlicesSerializer(help_text="The change asked for.")
    change_offers = ChangeOfferSerializer(
        many=True, help_text="The airline's offers, cheapest first; may be empty."
    )
    created_at = serializers.DateTimeField()
