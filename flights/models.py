from django.db import models
from django.utils.translation import gettext_lazy as _

from core.ids import PrefixedIdField
from core.json_fields import OrjsonTextField

# The words of flight search and offers, each defined here once: the API's inputs and schema,
# the supplier interface (flights/suppliers/base.py) and the panel's labels use these.


class TripType(models.TextChoices):
    ONE_WAY = "one_way"
    ROUND_TRIP = "round_trip"
    MULTI_CITY = "multi_city"


class CabinClass(models.TextChoices):
    ECONOMY = "economy", _("Economy")
    PREMIUM_ECONOMY = "premium_economy", _("Premium economy")
    BUSINESS = "business", _("Business")
    FIRST = "first", _("First")


class PassengerType(models.TextChoices):
    ADULT = "adult", _("Adult")
    CHILD = "child", _("Child")
    INFANT_WITHOUT_SEAT = "infant_without_seat", _("Infant (on lap)")


# Age on the day of the first departure, in whole years, both bounds included.
PASSENGER_AGES: dict[str, tuple[int, int]] = {
    PassengerType.ADULT: (12, 200),
    PassengerType.CHILD: (2, 11),
    PassengerType.INFANT_WITHOUT_SEAT: (0, 1),
}


class BaggageType(models.TextChoices):
    CHECKED = "checked"
    CARRY_ON = "carry_on"


class LocationType(models.TextChoices):
    """What a searched code stands for: one airport (GRU) or a city's airports (SAO)."""

    AIRPORT = "airport"
    CITY = "city"


class OfferRequest(models.Model):
    """One search (`orq_`) and, packed in one value, what a booking needs of each of its offers
    (flights/packing.py). Kept until an hour after its last offer expires (flights/tasks.py).

    Its offers' ids share its id's time part (`core.ids.sibling_id`): an offer id leads to its
    search without a row, or an index entry, per offer."""

    id = PrefixedIdField(prefix="orq")
    team = models.ForeignKey("agencies.Team", on_delete=models.CASCADE, related_name="+")
    live_mode = models.BooleanField()
    supplier = models.CharField(max_length=20)
    created_at = models.DateTimeField(auto_now_add=True)
    expires_at = models.DateTimeField(help_text="When the last of its offers expires.")
    passengers = OrjsonTextField(help_text="[[pas_ id, type, supplier's passenger id], ...]")
    offers = OrjsonTextField(help_text="The packed offers (flights/packing.py).")

    class Meta:
        indexes = [models.Index(fields=["expires_at"])]

    def __str__(self):
        return self.id


class SandboxOrder(models.Model):
    """The sandbox airline's own order book: what the airline knows whatever our side recorded.
    The order ids it hands out still carry the order's data (see
    flights/suppliers/sandbox/orders.py); this row is what lets it find an order by our booking
    id when its answer was lost, and what changes over time (an order pending at the airline
    becomes ticketed later)."""

    booking_reference = models.CharField(max_length=6, primary_key=True)
    booking_id = models.CharField(max_length=40, db_index=True, help_text="Our ord_ (metadata).")
    order_id = models.CharField(max_length=200, help_text="The order's current id (its state).")
    created_at = models.DateTimeField()
    # An order the airline accepted without confirming: tickets appear at this time.
    tickets_ready_at = models.DateTimeField(null=True, blank=True)
    # The confirmed cancellation (the sandbox's OrderCancellation, JSON), once cancelled.
    cancellation = models.JSONField(null=True, blank=True)
    # The airline's schedule change of the order (the sandbox's AirlineInitiatedChange, JSON):
    # the schedule-change scenario's (flights/suppliers/sandbox/changes.py).
    airline_change = models.JSONField(null=True, blank=True)

    def __str__(self):
        return f"{self.booking_reference} ({self.booking_id})"


class SandboxOrderChange(models.Model):
    """An order change offer the sandbox airline made (its OrderChangeOffer), and the change made
    from it (`change_id`, confirmed at `confirmed_at`): what a change's answer, lost, is read back
    from (flights/suppliers/sandbox/order_changes.py)."""

    id = models.CharField(max_length=60, primary_key=True)
    booking_reference = models.CharField(max_length=6, db_index=True)
    change_id = models.CharField(max_length=60, blank=True, db_index=True)
    data = models.JSONField(help_text="The offer's amounts, refund_to and expires_at.")
    created_at = models.DateTimeField()
    confirmed_at = models.DateTimeField(null=True, blank=True)

    def __str__(self):
        return self.id
