from django.db import models

from core.ids import PrefixedIdField


class Booking(models.Model):
    """An order (`ord_`) made from a stored offer. It keeps its own copy of everything it shows
    (offers are purged a day after they expire)."""

    class Status(models.TextChoices):
        PENDING = "pending"
        CONFIRMED = "confirmed"
        TICKETED = "ticketed"
        CANCELLED = "cancelled"
        EXPIRED = "expired"
        FAILED = "failed"

    class Type(models.TextChoices):
        HOLD = "hold"
        INSTANT = "instant"

    id = PrefixedIdField(prefix="ord")
    team = models.ForeignKey("agencies.Team", on_delete=models.PROTECT, related_name="bookings")
    live_mode = models.BooleanField()
    client = models.ForeignKey("agencies.Client", on_delete=models.PROTECT, related_name="bookings")
    # One booking per offer: an offer is never booked twice, whatever retries or races happen.
    offer_id = models.CharField(max_length=40, unique=True)
    # The Idempotency-Key of the request that created it: a retry whose first attempt died
    # after the booking was written finds it by this key instead of "offer already booked".
    idempotency_key = models.CharField(max_length=255, blank=True, default="")
    type = models.CharField(max_length=7, choices=Type.choices)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    supplier = models.CharField(max_length=20)
    supplier_order_id = models.CharField(max_length=200, blank=True)
    booking_reference = models.CharField(max_length=20, blank=True)
    total_amount = models.DecimalField(max_digits=14, decimal_places=2)
    total_currency = models.CharField(max_length=3)
    base_amount = models.DecimalField(max_digits=14, decimal_places=2)
    tax_amount = models.DecimalField(max_digits=14, decimal_places=2)
    exchange_rate = models.DecimalField(max_digits=18, decimal_places=8)
    base_cost_brl = models.DecimalField(
        max_digits=14, decimal_places=2, help_text="What the wallet is debited."
    )
    owner = models.JSONField()
    slices = models.JSONField()
    conditions = models.JSONField()
    departing_at = models.DateTimeField(help_text="First departure (UTC).")
    payment_required_by = models.DateTimeField(null=True, blank=True)
    price_guarantee_expires_at = models.DateTimeField(null=True, blank=True)
    metadata = models.JSONField(default=dict, blank=True)
    failure_reason = models.CharField(max_length=255, blank=True)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)
    updated_at = models.DateTimeField(auto_now=True)
    synced_at = models.DateTimeField(null=True, blank=True)
    confirmed_at = models.DateTimeField(null=True, blank=True)
    ticketed_at = models.DateTimeField(null=True, blank=True)
    cancelled_at = models.DateTimeField(null=True, blank=True)
    reminder_sent_at = models.DateTimeField(null=True, blank=True)
    # The supplier's answer to an order or a payment could not be trusted (lost, 5xx, unreadable,
    # accepted but unconfirmed): the money stays where it is until the reconcile job finds out.
    outcome_unknown_since = models.DateTimeField(null=True, blank=True)
    outcome_note = models.CharField(max_length=255, blank=True)
    outcome_checked_at = models.DateTimeField(null=True, blank=True)
    # One check with the supplier at a time per booking (the job on several workers, support's
    # "check now", a retried request): the holder of this lease acts.
    outcome_check_lease_until = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]
        indexes = [
            models.Index(fields=["team", "live_mode", "-created_at"]),
            models.Index(fields=["status", "payment_required_by"]),
            models.Index(
                fields=["outcome_unknown_since"],
                condition=models.Q(outcome_unknown_since__isnull=False),
                name="booking_outcome_unknown",
            ),
        ]

    def __str__(self):
        return f"{self.id} ({self.status})"


class BookingPassenger(models.Model):
    booking = models.ForeignKey(Booking, on_delete=models.CASCADE, related_name="passengers")
    position = models.PositiveSmallIntegerField()
    passenger_id = models.CharField(max_length=40, help_text="The offer's pas_ id.")
    type = models.CharField(max_length=20)
    title = models.CharField(max_length=5, blank=True)
    given_name = models.CharField(max_length=100)
    family_name = models.CharField(max_length=100)
    gender = models.CharField(max_length=1)
    born_on = models.DateField()
    email = models.EmailField()
    phone_number = models.CharField(max_length=20)
    identity_documents = models.JSONField(default=list, blank=True)
    loyalty_programme_accounts = models.JSONField(default=list, blank=True)
    infant_passenger_id = models.CharField(max_length=40, blank=True)
    supplier_passenger_id = models.CharField(max_length=100, blank=True)

    class Meta:
        ordering = ["position"]
        constraints = [
            models.UniqueConstraint(
                fields=["booking", "passenger_id"], name="booking_passenger_unique"
            )
        ]

    def __str__(self):
        return f"{self.given_name} {self.family_name}"


class BookingDocument(models.Model):
    booking = models.ForeignKey(Booking, on_delete=models.CASCADE, related_name="documents")
    passenger_id = models.CharField(max_length=40)
    type = models.CharField(max_length=30, default="electronic_ticket")
    unique_identifier = models.CharField(max_length=40)

    class Meta:
        constraints = [
            # Issuing twice (a retried task) can never add a second ticket for a passenger.
            models.UniqueConstraint(
                fields=["booking", "passenger_id", "type"],
                name="one_document_per_passenger_and_type",
            ),
        ]

    def __str__(self):
        return self.unique_identifier


class BookingEmail(models.Model):
    """One automatic e-mail of a booking: the row is written with the change that triggers it
    (so it is never lost), the task sends it and stamps `sent_at` (so it is sent once)."""

    class Kind(models.TextChoices):
        CREATED = "booking_created", "Booking confirmation"
        TICKETED = "ticket_issued", "Ticket issued"
        REMINDER = "payment_reminder", "Payment reminder"
        CANCELLED = "booking_cancelled", "Booking cancelled"
        FAILED = "booking_failed", "Booking failed"

    booking = models.ForeignKey(Booking, on_delete=models.CASCADE, related_name="emails")
    kind = models.CharField(max_length=20, choices=Kind.choices)
    created_at = models.DateTimeField(auto_now_add=True)
    sent_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["booking", "kind"], name="one_email_per_booking_and_kind"
            )
        ]

    def __str__(self):
        return f"{self.kind} for {self.booking_id}"
