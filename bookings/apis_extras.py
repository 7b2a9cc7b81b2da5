"""Extras (bags and seats) of bookings: the input of a service to buy (POST /bookings'
`services`), and a booking's extras after the sale (docs/extras.md)."""

from collections.abc import Mapping

from rest_framework import serializers

from api.serializers import FirstProblemListSerializer, FirstProblemSerializer

MAX_SERVICES = 40  # per request: a bag and a seat per passenger and segment, and then some
MAX_SERVICE_QUANTITY = 9


class ServiceInputSerializer(FirstProblemSerializer):
    id = serializers.CharField(
        max_length=200, help_text="An available service's id (ase_…): a bag, or a seat."
    )
    quantity = serializers.IntegerField(
        min_value=1,
        max_value=MAX_SERVICE_QUANTITY,
        help_text="How many: at most the service's maximum_quantity (a seat: 1).",
    )

    class Meta:
        list_serializer_class = FirstProblemListSerializer

    def to_internal_value(self, data) -> dict:
        if not isinstance(data, Mapping):
            raise serializers.ValidationError("Must be {id, quantity}.")
        return {"id": self.checked("id", data), "quantity": self.checked("quantity", data)}


def services_field(help_text: str, **kwargs):
    return ServiceInputSerializer(  # type: ignore[call-arg]  # ListSerializer kwargs
        many=True, max_length=MAX_SERVICES, help_text=help_text, **kwargs
    )
