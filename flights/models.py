from django.db import models

from core.ids import PrefixedIdField
from core.json_fields import OrjsonTextField


class OfferRequest(models.Model):
    """One search (`orq_`): what was asked, and the passengers its offers are priced for."""

    id = PrefixedIdField(prefix="orq")
    team = models.ForeignKey("agencies.Team", on_delete=models.CASCADE, related_name="+")
    live_mode = models.BooleanField()
    supplier = models.CharField(max_length=20)
    trip_type = models.CharField(max_length=12)
    cabin_class = models.CharField(max_length=16)
    slices = models.JSONField(help_text="The requested slices, as returned by the search.")
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self):
        return self.id


class OfferPassenger(models.Model):
    """A passenger of a search (`pas_`), shared by all its offers; bookings name them by id."""

    id = PrefixedIdField(prefix="pas")
    offer_request = models.ForeignKey(
        OfferRequest, on_delete=models.CASCADE, related_name="passengers"
    )
    position = models.PositiveSmallIntegerField()
    type = models.CharField(max_length=20)
    supplier_passenger_id = models.CharField(max_length=100)

    class Meta:
        ordering = ["position"]
        constraints = [
            models.UniqueConstraint(
                fields=["offer_request", "position"], name="offer_passenger_position_unique"
            )
        ]

    def __str__(self):
        return f"{self.id} ({self.type})"


class Offer(models.Model):
    """A priced offer (`off_`), stored until it expires so that it can be booked by id. `data`
    is the offer exactly as the search returned it; the columns are what bookings need exact."""

    id = PrefixedIdField(prefix="off")
    # Offers are short-lived rows written ~50 at a time with their request, in one transaction,
    # and deleted by the purge job: the database-level foreign keys and their indexes cost more
    # per search (one check and two index entries per row) than they protect here.
    offer_request = models.ForeignKey(
        OfferRequest,
        on_delete=models.CASCADE,
        related_name="offers",
        db_constraint=False,
        db_index=False,
    )
    team = models.ForeignKey(
        "agencies.Team",
        on_delete=models.CASCADE,
        related_name="+",
        db_constraint=False,
        db_index=False,
    )
    live_mode = models.BooleanField()
    supplier = models.CharField(max_length=20)
    supplier_offer_id = models.CharField(max_length=100)
    total_amount = models.DecimalField(max_digits=14, decimal_places=2)
    total_currency = models.CharField(max_length=3)
    exchange_rate = models.DecimalField(
        max_digits=18, decimal_places=8, help_text="BRL per unit, locked at search time."
    )
    base_cost_brl = models.DecimalField(max_digits=14, decimal_places=2)
    expires_at = models.DateTimeField()
    data = OrjsonTextField()

    class Meta:
        indexes = [models.Index(fields=["expires_at"])]

    def __str__(self):
        return self.id


class SandboxOrder(models.Model):
    """The sandbox airline's own order book: what the airline knows whatever our side recorded.
    The order ids it hands out still carry the order's data (see flights/suppliers/sandbox.py);
    this row is what lets it find an order by our booking id when its answer was lost, and what
    changes over time (an order pending at the airline becomes ticketed later)."""

    booking_reference = models.CharField(max_length=6, primary_key=True)
    booking_id = models.CharField(max_length=40, db_index=True, help_text="Our ord_ (metadata).")
    order_id = models.CharField(max_length=200, help_text="The order's current id (its state).")
    created_at = models.DateTimeField()
    # An order the airline accepted without confirming: tickets appear at this time.
    tickets_ready_at = models.DateTimeField(null=True, blank=True)

    def __str__(self):
        return f"{self.booking_reference} ({self.booking_id})"
